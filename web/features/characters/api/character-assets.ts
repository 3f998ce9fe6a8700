/**
 * The studio's expressions and backgrounds (DESIGN.md "Character assets"):
 * `POST /api/characters/{id}/assets` `{type, name, objectPath}` lists an
 * uploaded picture (the avatar upload flow) as the character's asset → 201;
 * `DELETE /api/characters/{id}/assets/{type}/{name}` → 204; `PUT
 * /api/characters/{id}/neutral-expression` `{name}` → 200 (that expression's
 * picture becomes the neutral one). Each refreshes the character.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CharacterAsset } from "../../../../schema/api.ts";
import { apiSend, apiSendUnread } from "../../../lib/api-client.ts";

export interface AssetUpload {
  type: "emotion" | "background";
  name: string;
  objectPath: string;
}

/** Throws the SPEC.md §8 error (400 a refused picture, 403 someone else's character). */
export function addCharacterAsset(characterId: number, asset: AssetUpload): Promise<CharacterAsset> {
  return apiSend("post", "/api/characters/:id/assets", { params: { id: characterId }, body: asset }) as Promise<CharacterAsset>;
}

export function deleteCharacterAsset(characterId: number, asset: Pick<CharacterAsset, "type" | "name">): Promise<void> {
  return apiSendUnread("delete", "/api/characters/:id/assets/:type/:name", { params: { id: characterId, type: asset.type, name: asset.name } });
}

/** Deleting one: the character's page is read again afterwards. */
export function useDeleteCharacterAsset(characterId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (asset: Pick<CharacterAsset, "type" | "name">) => deleteCharacterAsset(characterId, asset),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["/api/characters", String(characterId)] }),
  });
}

/** Making the expression `name`'s picture the neutral one; the character's page is read again afterwards. */
export function useSetNeutralExpression(characterId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => apiSendUnread("put", "/api/characters/:id/neutral-expression", { params: { id: characterId }, body: { name } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["/api/characters", String(characterId)] }),
  });
}
