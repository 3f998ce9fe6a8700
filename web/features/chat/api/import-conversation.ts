/**
 * `POST /api/conversations/import?characterId=` with a SillyTavern chat
 * file (JSONL) as the raw body → 201 with a new conversation of the person
 * holding its messages (docs/decisions/0007-steering-a-chat.md "Export and
 * import"). Every refused file is a 400 whose `error` sentence names the line.
 */
import { useMutation } from "@tanstack/react-query";
import { type FetchLike, apiJson, apiUrl, throwIfResNotOk } from "../../../lib/api-client.ts";

/** The file picker's `accept`: SillyTavern's chat files. */
export const CHAT_FILE_ACCEPT = ".jsonl,application/jsonl,application/x-ndjson";

/** Throws the SPEC.md §8 error: `401`, `404` for a character the person may not chat with, `400` for a broken file. */
export async function importConversation(
  characterId: number,
  file: Blob,
  fetchImpl: FetchLike = (u, i) => fetch(u, i),
) {
  const res = await fetchImpl(apiUrl("/api/conversations/import", { query: `characterId=${characterId}` }), {
    method: "POST",
    headers: { "Content-Type": "application/jsonl" },
    body: file,
    credentials: "include",
  });
  await throwIfResNotOk(res);
  return apiJson(res, "post", "/api/conversations/import");
}

export function useImportConversation(characterId: number) {
  return useMutation({ mutationFn: (file: Blob) => importConversation(characterId, file) });
}
