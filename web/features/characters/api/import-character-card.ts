/**
 * `POST /api/characters/import` with a character card file as the raw body
 * (DESIGN.md "Character cards"): a PNG with the card in its tEXt chunks, or
 * the card's JSON (V1, V2 or V3) → 201 with the new character, created
 * inactive for review. Success refreshes My Characters.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { MAX_UPLOAD_BYTES } from "../../../../schema/constants.ts";
import { type FetchLike, apiJson, throwIfResNotOk } from "../../../lib/api-client.ts";
import { refreshCharacters } from "./refresh-characters.ts";

/** The file picker's `accept`: PNG cards and JSON cards. */
export const CARD_FILE_ACCEPT = ".png,.json,image/png,application/json";

/** Largest card file sent, bytes (the server refuses larger ones with 413). */
export const MAX_CARD_BYTES = MAX_UPLOAD_BYTES;

/**
 * The Content-Type the import needs: `image/png` for a PNG card,
 * `application/json` for a JSON one, decided by the file's type, else its
 * extension; null for anything else.
 */
export function cardContentType(file: { name: string; type: string }): "image/png" | "application/json" | null {
  const type = file.type.toLowerCase();
  if (type === "image/png") return "image/png";
  if (type === "application/json" || type.endsWith("+json")) return "application/json";
  const name = file.name.toLowerCase();
  if (name.endsWith(".png")) return "image/png";
  if (name.endsWith(".json")) return "application/json";
  return null;
}

/** A refusal found before sending (wrong kind of file, too large). */
export class CardFileError extends Error {}

/**
 * Sends `file` as the body. Throws CardFileError for a file that is not a
 * PNG or JSON card or is over 10 MB, else the SPEC.md §8 error (`400: …` /
 * `413: …` with the server's sentence).
 */
export async function importCharacterCard(file: File, fetchImpl: FetchLike = (u, i) => fetch(u, i)) {
  const contentType = cardContentType(file);
  if (!contentType) throw new CardFileError("Choose a character card: a PNG image or a JSON file");
  if (file.size > MAX_CARD_BYTES) throw new CardFileError("The card file is too large (at most 10 MB)");
  const res = await fetchImpl("/api/characters/import", {
    method: "POST",
    headers: { "Content-Type": contentType },
    body: file,
    credentials: "include",
  });
  await throwIfResNotOk(res);
  return apiJson(res, "post", "/api/characters/import");
}

export function useImportCharacterCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => importCharacterCard(file),
    onSuccess: (character) => {
      void refreshCharacters(queryClient, { character });
    },
  });
}
