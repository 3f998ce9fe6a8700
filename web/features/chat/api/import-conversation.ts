/**
 * `POST /api/conversations/import?characterId=` with a SillyTavern chat
 * file (JSONL) as the raw body → 201 with a new conversation of the person
 * holding its messages (docs/decisions/0007-steering-a-chat.md "Export and
 * import"). Every refused file is a 400 whose `error` sentence names the line.
 * A SillyTavern group chat goes to `?characterIds=1,2,3` (DESIGN.md "Group
 * chats"): each message's `name` is mapped onto one of them, and a name
 * that matches none is refused with a 400 that names it.
 */
import { useMutation } from "@tanstack/react-query";
import { type FetchLike, apiJson, apiUrl, throwIfResNotOk } from "../../../lib/api-client.ts";

/** The file picker's `accept`: SillyTavern's chat files. */
export const CHAT_FILE_ACCEPT = ".jsonl,application/jsonl,application/x-ndjson";

/** The query naming the cast: `characterId=7` for one character, `characterIds=7,8,9` for a group. */
export function importQuery(characterIds: number | readonly number[]): string {
  const ids = typeof characterIds === "number" ? [characterIds] : characterIds;
  return ids.length === 1 ? `characterId=${ids[0]}` : `characterIds=${ids.join(",")}`;
}

/** Throws the SPEC.md §8 error: `401`, `404` for a character the person may not chat with, `400` for a broken file or unknown names. */
export async function importConversation(
  characterIds: number | readonly number[],
  file: Blob,
  fetchImpl: FetchLike = (u, i) => fetch(u, i),
) {
  const res = await fetchImpl(apiUrl("/api/conversations/import", { query: importQuery(characterIds) }), {
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

/** Imports a SillyTavern group chat onto the chosen cast (member order as given). */
export function useImportGroupConversation() {
  return useMutation({ mutationFn: ({ characterIds, file }: { characterIds: number[]; file: Blob }) => importConversation(characterIds, file) });
}
