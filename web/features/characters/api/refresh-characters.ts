/**
 * What a character write refreshes (SPEC.md §4 "Create/update success": the
 * character lists): My Characters, every cached catalog page, the character
 * itself, the popular tags (tag counts follow active characters) and the
 * cached conversations, which embed their character's name and avatar.
 */
import type { QueryClient } from "@tanstack/react-query";
import type { ApiResponse } from "../../../lib/api-types.ts";
import { characterQueryOptions } from "./get-character.ts";
import { isCharacterListKey } from "./get-characters.ts";
import { myCharactersQueryOptions } from "./get-my-characters.ts";

/**
 * Invalidates the lists; with `character` (the server's answer to a write)
 * the cached character is replaced by it rather than fetched again, since
 * reading a character counts a view.
 */
export function refreshCharacters(
  queryClient: QueryClient,
  change: { character: ApiResponse<"/api/characters/:id"> } | { deletedId: number },
): Promise<unknown> {
  if ("character" in change) {
    queryClient.setQueryData(characterQueryOptions(String(change.character.id)).queryKey, change.character);
  } else {
    queryClient.removeQueries({ queryKey: characterQueryOptions(String(change.deletedId)).queryKey });
  }
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: myCharactersQueryOptions().queryKey }),
    queryClient.invalidateQueries({ predicate: ({ queryKey }) => isCharacterListKey(queryKey) }),
    // The tags feature's key (`["/api/tags", {popular: true}]`) by its path, not by import.
    queryClient.invalidateQueries({ queryKey: ["/api/tags"] }),
    // The chat feature's keys (`["/api/conversations", …]`): a chat opened
    // again shows the edited name and avatar, not the cached ones.
    queryClient.invalidateQueries({ queryKey: ["/api/conversations"] }),
  ]);
}
