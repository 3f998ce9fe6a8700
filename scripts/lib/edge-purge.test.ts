/**
 * The operator's purge after an upheld report (scripts/lib/edge-purge.ts),
 * against the loopback Cloudflare API of worker/test/cloudflare-api-server.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCloudflareApiStub } from "../../worker/test/cloudflare-api-server.ts";
import { cachedCharacterOf, purgeAfterOperatorAction } from "./edge-purge.ts";

let stub: Awaited<ReturnType<typeof startCloudflareApiStub>>;
beforeAll(async () => {
  stub = await startCloudflareApiStub();
});
afterAll(() => stub.close());

describe("the character an uphold changes", () => {
  it("is the reported character, or the one a reported comment is on; none for a chat message", () => {
    expect(cachedCharacterOf({ targetType: "character", targetId: "42", characterId: 42 })).toBe(42);
    expect(cachedCharacterOf({ targetType: "comment", targetId: "7", characterId: 42 })).toBe(42);
    expect(cachedCharacterOf({ targetType: "message", targetId: "b1c2", characterId: 42 })).toBeNull();
  });
});

describe("purge after an operator's action", () => {
  it("on the deployed database with a zone and token: purges the character's tag everywhere", async () => {
    const env = { CACHE_PURGE_ZONE_ID: "zone-cli", CACHE_PURGE_API_TOKEN: "cli-token", CLOUDFLARE_API_BASE_URL: stub.base };
    const said = await purgeAfterOperatorAction(42, { remote: true, env });
    expect(said).toBe("Cached copies of character 42 purged in every data center.");
    expect(stub.purges("zone-cli")).toEqual([{ authorization: "Bearer cli-token", body: { tags: ["fabled-character-42"] } }]);
  });

  it("says why when Cloudflare refuses the token", async () => {
    const env = { CACHE_PURGE_ZONE_ID: "zone-cli-bad", CACHE_PURGE_API_TOKEN: "bad-token", CLOUDFLARE_API_BASE_URL: stub.base };
    await expect(purgeAfterOperatorAction(42, { remote: true, env })).rejects.toThrow(
      "Cloudflare cache purge failed: Authentication error",
    );
    expect(stub.purges("zone-cli-bad")).toEqual([]);
  });

  it("without purge settings, or on the local database, calls nothing and states the bound", async () => {
    expect(await purgeAfterOperatorAction(42, { remote: true, env: { CLOUDFLARE_API_BASE_URL: stub.base } })).toBe(
      "Cached copies of character 42 expire within 30 s (set CACHE_PURGE_ZONE_ID and CACHE_PURGE_API_TOKEN to purge them at once).",
    );
    expect(
      await purgeAfterOperatorAction(42, {
        remote: false,
        env: { CACHE_PURGE_ZONE_ID: "zone-local", CACHE_PURGE_API_TOKEN: "t", CLOUDFLARE_API_BASE_URL: stub.base },
      }),
    ).toBe("Cached copies of character 42 on the local server expire within 30 s.");
    expect(stub.purges("zone-local")).toEqual([]);
    expect(await purgeAfterOperatorAction(null, { remote: true, env: {} })).toBeNull();
  });
});
