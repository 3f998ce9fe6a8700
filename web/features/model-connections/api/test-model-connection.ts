/**
 * "Test connection": `POST /api/model-connections/test` `{baseUrl, apiKey?,
 * id?}` → 200 `{models}`, the endpoint's `/v1/models`. With `id` and no key
 * typed, the saved key of that connection is used.
 */
import { useMutation } from "@tanstack/react-query";
import { apiSend } from "../../../lib/api-client.ts";

/** Throws the SPEC.md §8 error: `400` with what the endpoint answered ("… answered 401 — check the key …") or why the URL is refused. */
export function testModelConnection(body: { baseUrl: string; apiKey?: string; id?: string }) {
  return apiSend("post", "/api/model-connections/test", { body });
}

export function useTestModelConnection() {
  return useMutation({ mutationFn: testModelConnection });
}
