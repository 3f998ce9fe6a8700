import { MutationObserver } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { userQueryOptions } from "./auth.ts";
import { createQueryClient } from "./query-client.ts";

/** Runs a mutation on `client` that fails with `message`, as the api client would throw it. */
async function failWrite(client: ReturnType<typeof createQueryClient>, message: string) {
  const observer = new MutationObserver(client, { mutationFn: () => Promise.reject(new Error(message)) });
  await observer.mutate().catch(() => undefined);
}

describe("createQueryClient", () => {
  const user = { id: "u1", firstName: "Ada", email: "ada@example.com", profileImageUrl: null };

  it("asks again who this is after a write refused with 403 (a suspension shows at once)", async () => {
    const client = createQueryClient();
    client.setQueryData(userQueryOptions().queryKey, user as never);
    await failWrite(client, '403: {"error":"Your account has been suspended…","code":"forbidden"}');
    expect(client.getQueryState(userQueryOptions().queryKey)?.isInvalidated).toBe(true);
  });

  it("leaves the signed-in person alone after other failures", async () => {
    const client = createQueryClient();
    client.setQueryData(userQueryOptions().queryKey, user as never);
    await failWrite(client, '400: {"error":"You cannot report your own comment","code":"validation_failed"}');
    await failWrite(client, "500: Internal Server Error");
    expect(client.getQueryState(userQueryOptions().queryKey)?.isInvalidated).toBe(false);
  });
});
