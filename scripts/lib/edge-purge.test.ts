/**
 * The operator's purge after an upheld report (scripts/lib/edge-purge.ts),
 * against the loopback Cloudflare API of worker/test/cloudflare-api-server.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCloudflareApiStub } from "../../worker/test/cloudflare-api-server.ts";
import { cachedCopiesOf, purgeAfterOperatorAction } from "./edge-purge.ts";

let stub: Awaited<ReturnType<typeof startCloudflareApiStub>>;
beforeAll(async () => {
  stub = await startCloudflareApiStub();
});
afterAll(() => stub.close());

const CHARACTER_42 = { name: "character 42", tag: "fabled-character-42" };

describe("the cached copies an uphold changes", () => {
  it("are the reported character's, the character's a reported comment is on, or a removed share link's; none for a chat message", () => {
    expect(cachedCopiesOf({ targetType: "character", targetId: "42", characterId: 42 })).toEqual({ name: "character 42", tag: "fabled-character-42" });
    expect(cachedCopiesOf({ targetType: "comment", targetId: "7", characterId: 42 })).toEqual({ name: "character 42", tag: "fabled-character-42" });
    const token = "AbCdEfGhIjKlMnOpQrStUv";
    expect(cachedCopiesOf({ targetType: "share", targetId: token, characterId: null })).toEqual({ name: `share link ${token}`, tag: `fabled-share-${token}` });
    expect(cachedCopiesOf({ targetType: "message", targetId: "b1c2", characterId: 42 })).toBeNull();
  });
});

describe("purge after an operator's action", () => {
  it("on the deployed database with a zone and token: purges the character's tag everywhere", async () => {
    const env = { CACHE_PURGE_ZONE_ID: "zone-cli", CACHE_PURGE_API_TOKEN: "cli-token", CLOUDFLARE_API_BASE_URL: stub.base };
    const said = await purgeAfterOperatorAction(CHARACTER_42, { remote: true, env });
    expect(said).toBe("Cached copies of character 42 purged in every data center.");
    expect(stub.purges("zone-cli")).toEqual([{ authorization: "Bearer cli-token", body: { tags: ["fabled-character-42"] } }]);
  });

  it("says why when Cloudflare refuses the token", async () => {
    const env = { CACHE_PURGE_ZONE_ID: "zone-cli-bad", CACHE_PURGE_API_TOKEN: "bad-token", CLOUDFLARE_API_BASE_URL: stub.base };
    await expect(purgeAfterOperatorAction(CHARACTER_42, { remote: true, env })).rejects.toThrow(
      "Cloudflare cache purge failed: Authentication error",
    );
    expect(stub.purges("zone-cli-bad")).toEqual([]);
  });

  it("without purge settings, or on the local database, calls nothing and states the bound", async () => {
    expect(await purgeAfterOperatorAction(CHARACTER_42, { remote: true, env: { CLOUDFLARE_API_BASE_URL: stub.base } })).toBe(
      "Cached copies of character 42 expire within 30 s (set CACHE_PURGE_ZONE_ID and CACHE_PURGE_API_TOKEN to purge them at once).",
    );
    expect(
      await purgeAfterOperatorAction(CHARACTER_42, {
        remote: false,
        env: { CACHE_PURGE_ZONE_ID: "zone-local", CACHE_PURGE_API_TOKEN: "t", CLOUDFLARE_API_BASE_URL: stub.base },
      }),
    ).toBe("Cached copies of character 42 on the local server expire within 30 s.");
    expect(stub.purges("zone-local")).toEqual([]);
    expect(await purgeAfterOperatorAction(null, { remote: true, env: {} })).toBeNull();
  });

  it("purges a removed share link's tag", async () => {
    const env = { CACHE_PURGE_ZONE_ID: "zone-cli-share", CACHE_PURGE_API_TOKEN: "cli-token", CLOUDFLARE_API_BASE_URL: stub.base };
    const token = "AbCdEfGhIjKlMnOpQrStUv";
    const copies = cachedCopiesOf({ targetType: "share", targetId: token, characterId: null });
    expect(await purgeAfterOperatorAction(copies, { remote: true, env })).toBe(`Cached copies of share link ${token} purged in every data center.`);
    expect(stub.purges("zone-cli-share")).toEqual([{ authorization: "Bearer cli-token", body: { tags: [`fabled-share-${token}`] } }]);
  });
});
