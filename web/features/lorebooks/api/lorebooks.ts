/**
 * A person's lorebooks (DESIGN.md turn 4 "Lorebooks", worker/routes/lorebooks.ts):
 *
 * - `GET /api/lorebooks` → `{lorebooks: LorebookSummary[]}`;
 * - `POST /api/lorebooks` → 201 the book; `GET/PUT/DELETE /api/lorebooks/{id}`;
 * - `POST /api/lorebooks/import` a World Info file, a `character_book` or a
 *   card (`?name=`: the file's name when it has none) → 201 the book;
 * - `GET /api/lorebooks/{id}/export` → SillyTavern World Info JSON;
 * - `GET/PUT /api/characters/{id}/lorebooks` `{lorebookIds}`: the books a
 *   character's creator attached to it (a chat's go through
 *   web/features/chat/api/update-conversation.ts).
 *
 * Every write throws the SPEC.md §8 error (400 with issues, 404, 409, 422
 * screened) and refreshes the list and the book.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { LorebookInput } from "../../../../schema/inputs.ts";
import type { LorebookRecord, LorebookSummary } from "../../../../schema/lorebook/book.ts";
import { apiGet, apiRequest, apiSend } from "../../../lib/api-client.ts";

const LIST_KEY = ["/api/lorebooks"] as const;

export const lorebooksQueryOptions = () =>
  queryOptions({
    queryKey: LIST_KEY,
    queryFn: async () => ((await (await apiRequest("GET", "/api/lorebooks")).json()) as { lorebooks: LorebookSummary[] }).lorebooks,
  });

export const lorebookQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ["/api/lorebooks", id],
    queryFn: async () => (await (await apiRequest("GET", `/api/lorebooks/${encodeURIComponent(id)}`)).json()) as LorebookRecord,
  });

export const useLorebooks = () => useQuery(lorebooksQueryOptions());
export const useLorebook = (id: string) => useQuery(lorebookQueryOptions(id));

/** The body of a write: the book's fields as `lorebookInputSchema` reads them (entries may omit what has a default). */
export type LorebookBody = Omit<LorebookInput, "entries" | "settings" | "description"> & {
  description?: string;
  entries: Partial<LorebookInput["entries"][number]>[];
  settings?: LorebookInput["settings"];
};

function useRefreshing<Input>(write: (input: Input) => Promise<LorebookRecord | null>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSettled: () => queryClient.invalidateQueries({ queryKey: LIST_KEY }),
  });
}

export const useCreateLorebook = () =>
  useRefreshing(async (body: LorebookBody) => (await (await apiRequest("POST", "/api/lorebooks", body)).json()) as LorebookRecord);

export const useSaveLorebook = (id: string) =>
  useRefreshing(async (body: LorebookBody) => (await (await apiRequest("PUT", `/api/lorebooks/${encodeURIComponent(id)}`, body)).json()) as LorebookRecord);

export const useDeleteLorebook = () =>
  useRefreshing(async (id: string) => {
    await apiRequest("DELETE", `/api/lorebooks/${encodeURIComponent(id)}`);
    return null;
  });

/** Imports a file's JSON text; `name` names a book the file does not name. Throws on text that is not JSON (as the server would). */
export const useImportLorebook = () =>
  useRefreshing(async ({ text, name }: { text: string; name: string }) => {
    const res = await fetch(`/api/lorebooks/import?name=${encodeURIComponent(name)}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: text,
      credentials: "include",
    });
    if (!res.ok) throw new Error(`${res.status}: ${await res.text()}`);
    return (await res.json()) as LorebookRecord;
  });

/** The export's URL (a download: the server names the file). */
export const exportUrl = (id: string) => `/api/lorebooks/${encodeURIComponent(id)}/export`;

/**
 * `GET /api/characters/{id}/lorebooks` (the creator) → the ids of the
 * standalone books attached to the character, in order.
 */
export const characterLorebooksQueryOptions = (characterId: number) =>
  queryOptions({
    queryKey: ["/api/characters", characterId, "lorebooks"],
    queryFn: async () => (await apiGet("/api/characters/:id/lorebooks", { params: { id: characterId } })).lorebookIds,
  });

export const useCharacterLorebooks = (characterId: number, enabled = true) => useQuery({ ...characterLorebooksQueryOptions(characterId), enabled });

/**
 * `PUT /api/characters/{id}/lorebooks` `{lorebookIds}` → `{lorebookIds}`:
 * attaches the creator's standalone books to the character (the room
 * reads them at its next reply). Throws the SPEC.md §8 error: 400 naming
 * `lorebookIds.N` for a book that is not one of theirs, 403/404.
 */
export function attachToCharacter(characterId: number, lorebookIds: string[]) {
  return apiSend("put", "/api/characters/:id/lorebooks", { params: { id: characterId }, body: { lorebookIds } });
}

export function useAttachToCharacter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ characterId, lorebookIds }: { characterId: number; lorebookIds: string[] }) => attachToCharacter(characterId, lorebookIds),
    onSuccess: (answer, { characterId }) => queryClient.setQueryData(characterLorebooksQueryOptions(characterId).queryKey, answer.lorebookIds),
  });
}
