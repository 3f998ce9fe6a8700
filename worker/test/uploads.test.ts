/**
 * Avatar uploads as the upload panel and the browser see them: an upload URL,
 * the PUT of the file, its registration, and `/objects/<key>` serving it with
 * HTTP caching — and every refusal (size, type, owner, token, key).
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import encodeChunks from "png-chunks-encode";
import extractChunks from "png-chunks-extract";
import { beforeEach, describe, expect, it, vi } from "vitest";
import app from "../app.ts";
import { MAX_AVATAR_BYTES, MAX_IMAGE_SIDE, signUploadToken, sniffImageType } from "../lib/uploads.ts";
import { bucketKeys, call, callSettled, json, TINY_PNG } from "./creator-api.ts";
import { signIn, type TestUser } from "./fixtures.ts";

const ascii = (text: string) => new TextEncoder().encode(text);
const withHeader = (header: number[], size = 64) => {
  const bytes = new Uint8Array(size);
  bytes.set(header);
  return bytes;
};
/** JPEG headers up to a baseline SOF0 of `width` × `height` (the pixel-size check reads it). */
const jpegOf = (width: number, height: number) =>
  withHeader([
    ...[0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0],
    ...[0xff, 0xc0, 0x00, 0x0b, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x01, 0x01, 0x11, 0x00, 0xff, 0xd9],
  ]);
/** GIF header of `width` × `height` (little-endian logical screen). */
const gifOf = (width: number, height: number) => withHeader([...ascii("GIF89a"), width & 0xff, width >> 8, height & 0xff, height >> 8]);
const JPEG = jpegOf(1, 1);
const GIF = gifOf(1, 1);
const WEBP = withHeader([...ascii("RIFF"), 0x24, 0, 0, 0, ...ascii("WEBPVP8 "), 0x18, 0, 0, 0, 0x30, 0x01, 0x00, 0x9d, 0x01, 0x2a, 1, 0, 1, 0]);
/** TINY_PNG declaring `width` × `height` in its IHDR (CRC recomputed): a few bytes that claim a huge canvas. */
const pngOf = (width: number, height: number) => {
  const chunks = extractChunks(TINY_PNG);
  const ihdr = chunks.find((chunk) => chunk.name === "IHDR")!;
  const view = new DataView(ihdr.data.buffer, ihdr.data.byteOffset, ihdr.data.byteLength);
  view.setUint32(0, width);
  view.setUint32(4, height);
  return encodeChunks(chunks);
};
const SVG = ascii('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><circle r="4"/></svg>');
const HTML = ascii("<!doctype html><script>alert(document.cookie)</script>");
const TEXT = ascii("just some text, renamed to avatar.png");

async function uploadUrl(user: TestUser): Promise<string> {
  const { uploadURL } = await json<{ uploadURL: string }>(await call("/api/objects/upload", { method: "POST", user }), 200);
  return uploadURL;
}

const put = (url: string, bytes: Uint8Array, type = "image/png") =>
  call(url, { method: "PUT", body: bytes, headers: { "content-type": type } });

const register = (user: TestUser | null, avatarURL: unknown) =>
  call("/api/character-avatars", { method: "PUT", user, body: { avatarURL } });

const keyOf = (uploadURL: string) => decodeURIComponent(new URL(uploadURL).pathname.replace("/api/objects/upload/", ""));

/** Uploads `bytes` through the Worker upload URL; returns that URL. */
async function upload(user: TestUser, bytes: Uint8Array, type?: string): Promise<string> {
  const url = await uploadUrl(user);
  expect((await put(url, bytes, type)).status).toBe(200);
  return url;
}

beforeEach(async () => {
  await env.DB.prepare("DELETE FROM users").run();
  for (const key of await bucketKeys()) await env.AVATARS.delete(key);
});

describe("the Worker upload URL (no R2 S3 endpoint configured)", () => {
  it("upload URL → PUT → register → GET with ETag → 304, and it works as an avatarUrl", async () => {
    const mira = await signIn();
    const uploadURL = await uploadUrl(mira);
    const url = new URL(uploadURL);
    expect(url.origin).toBe("http://localhost");
    expect(url.pathname).toMatch(new RegExp(`^/api/objects/upload/avatars/${mira.id}/[0-9a-f-]{36}$`));
    expect(url.searchParams.get("token")).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);

    const uploaded = await json(await put(uploadURL, TINY_PNG, "application/octet-stream"), 200);
    expect(uploaded).toEqual({ key: keyOf(uploadURL), size: TINY_PNG.length });
    // Not served before it is registered.
    expect((await call(`/objects/${keyOf(uploadURL)}`)).status).toBe(404);

    const { objectPath } = await json<{ objectPath: string }>(await register(mira, uploadURL), 200);
    expect(objectPath).toBe(`/objects/${keyOf(uploadURL)}`);

    const served = await call(objectPath);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("content-length")).toBe(String(TINY_PNG.length));
    const etag = served.headers.get("etag");
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(TINY_PNG);

    const again = await call(objectPath, { headers: { "if-none-match": etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(await again.text()).toBe("");
    expect((await call(objectPath, { headers: { "if-none-match": '"other"' } })).status).toBe(200);

    // Registering again (e.g. with the path) is harmless.
    expect(await json(await register(mira, objectPath), 200)).toEqual({ objectPath });

    const character = await json(
      await call("/api/characters", {
        method: "POST",
        user: mira,
        body: {
          name: "Avatar Test",
          description: "A character with an uploaded avatar.",
          personality: "Photogenic and proud of it.",
          avatarUrl: objectPath,
        },
      }),
      201,
    );
    expect(character.avatarUrl).toBe(objectPath);
  });

  it.each([
    ["PNG", TINY_PNG, "image/png"],
    ["JPEG", JPEG, "image/jpeg"],
    ["GIF", GIF, "image/gif"],
    ["WebP", WEBP, "image/webp"],
  ])("serves a %s with the content type sniffed from its bytes, whatever was declared", async (_, bytes, type) => {
    const mira = await signIn();
    const url = await upload(mira, bytes, "image/svg+xml");
    const { objectPath } = await json(await register(mira, url), 200);
    const served = await call(objectPath);
    expect(served.headers.get("content-type")).toBe(type);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);
  });

  it("needs a signed-in person to get an upload URL or register", async () => {
    expect((await call("/api/objects/upload", { method: "POST" })).status).toBe(401);
    const mira = await signIn();
    const url = await upload(mira, TINY_PNG);
    expect(await json(await register(null, url), 401)).toEqual({ error: "Unauthorized", code: "unauthorized" });
  });
});

describe("refusals", () => {
  it("a file of 10,485,761 bytes is refused with 413 at upload (and 10,485,760 accepted)", async () => {
    const mira = await signIn();
    const tooBig = new Uint8Array(MAX_AVATAR_BYTES + 1);
    tooBig.set(TINY_PNG);
    const url = await uploadUrl(mira);
    expect(await json(await put(url, tooBig), 413)).toMatchObject({ code: "payload_too_large" });
    expect(await bucketKeys()).toEqual([]);

    const justRight = tooBig.subarray(0, MAX_AVATAR_BYTES);
    expect((await put(url, justRight)).status).toBe(200);
    expect(await json(await register(mira, url), 200)).toHaveProperty("objectPath");
  });

  it("an object over 10 MB that reached R2 directly (presigned PUT) is refused at registration and deleted", async () => {
    const mira = await signIn();
    const key = `avatars/${mira.id}/${crypto.randomUUID()}`;
    const big = new Uint8Array(MAX_AVATAR_BYTES + 1);
    big.set(TINY_PNG);
    await env.AVATARS.put(key, big);
    expect(await json(await register(mira, `/objects/${key}`), 413)).toMatchObject({
      code: "payload_too_large",
      error: "Avatars can be at most 10 MB",
    });
    expect(await env.AVATARS.head(key)).toBeNull();
  });

  it.each([
    ["an SVG", SVG, "image/svg+xml"],
    ["HTML named .png", HTML, "image/png"],
    ["plain text", TEXT, "image/png"],
    ["an empty-ish file", new Uint8Array([0x89, 0x50]), "image/png"],
  ])("%s is refused with 400 and deleted", async (_, bytes, type) => {
    const mira = await signIn();
    const url = await upload(mira, bytes, type);
    expect(await json(await register(mira, url), 400)).toMatchObject({
      code: "validation_failed",
      error: "Avatars must be PNG, JPEG, WebP or GIF images",
    });
    expect(await env.AVATARS.head(keyOf(url))).toBeNull();
    expect((await call(`/objects/${keyOf(url)}`)).status).toBe(404);
  });

  it.each([
    ["a 50,000 × 50,000 PNG", pngOf(50_000, 50_000), "50000 × 50000"],
    ["a 4,097 × 1 PNG", pngOf(4097, 1), "4097 × 1"],
    ["a 10 × 5,000 JPEG", jpegOf(10, 5000), "10 × 5000"],
    ["a 65,535 × 65,535 GIF", gifOf(65_535, 65_535), "65535 × 65535"],
  ])("%s (a few bytes claiming a huge canvas) is refused at registration with 400 and deleted", async (_, bytes, size) => {
    const mira = await signIn();
    const url = await upload(mira, bytes, "image/png");
    expect(await json(await register(mira, url), 400)).toEqual({
      code: "validation_failed",
      error: `Pictures can be at most ${MAX_IMAGE_SIDE} × ${MAX_IMAGE_SIDE} pixels (this one is ${size})`,
      issues: [{ path: "avatarURL", message: `Pictures can be at most ${MAX_IMAGE_SIDE} × ${MAX_IMAGE_SIDE} pixels (this one is ${size})` }],
    });
    expect(await env.AVATARS.head(keyOf(url))).toBeNull();
    expect((await call(`/objects/${keyOf(url)}`)).status).toBe(404);
  });

  it("a huge PNG put straight into R2 (presigned PUT) is refused the same way; 4,096 × 4,096 is accepted", async () => {
    const mira = await signIn();
    const key = `avatars/${mira.id}/${crypto.randomUUID()}`;
    await env.AVATARS.put(key, pngOf(50_000, 50_000));
    expect(await json(await register(mira, `/objects/${key}`), 400)).toMatchObject({ code: "validation_failed" });
    expect(await env.AVATARS.head(key)).toBeNull();

    const url = await upload(mira, pngOf(MAX_IMAGE_SIDE, MAX_IMAGE_SIDE));
    expect(await json(await register(mira, url), 200)).toHaveProperty("objectPath");
  });

  it("an image whose size cannot be read is refused with 400 and deleted", async () => {
    const mira = await signIn();
    // JPEG magic bytes without any frame header.
    const url = await upload(mira, withHeader([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]));
    expect(await json(await register(mira, url), 400)).toMatchObject({
      code: "validation_failed",
      error: "The picture's size could not be read; the file may be damaged",
    });
    expect(await env.AVATARS.head(keyOf(url))).toBeNull();
  });

  it("registering an already registered object answers at once, without reading or rewriting it", async () => {
    const mira = await signIn();
    const uploadURL = await upload(mira, TINY_PNG);
    const { objectPath } = await json<{ objectPath: string }>(await register(mira, uploadURL), 200);
    const key = keyOf(uploadURL);
    const before = await env.AVATARS.head(key);
    for (const again of [uploadURL, objectPath]) {
      expect(await json(await register(mira, again), 200)).toEqual({ objectPath });
    }
    // The same stored version: R2 gives every write a new one.
    expect((await env.AVATARS.head(key))?.version).toBe(before!.version);
    // A new upload to the key (its URL is still valid) is checked again from scratch.
    expect((await put(uploadURL, HTML)).status).toBe(200);
    expect(await json(await register(mira, objectPath), 400)).toMatchObject({ code: "validation_failed" });
    expect(await env.AVATARS.head(key)).toBeNull();
  });

  it("someone else's upload cannot be registered (403) and stays theirs", async () => {
    const mira = await signIn();
    const tom = await signIn();
    const url = await upload(mira, TINY_PNG);
    expect(await json(await register(tom, url), 403)).toMatchObject({ code: "forbidden", error: "This upload belongs to someone else" });
    expect(await json(await register(tom, `/objects/${keyOf(url)}`), 403)).toMatchObject({ code: "forbidden" });
    expect(await env.AVATARS.head(keyOf(url))).not.toBeNull();
    expect((await register(mira, url)).status).toBe(200);
  });

  it("an expired, tampered, foreign or missing token cannot upload (403)", async () => {
    const mira = await signIn();
    const url = new URL(await uploadUrl(mira));
    const key = keyOf(url.href);
    const withToken = (token: string | null, path = url.pathname) => {
      const u = new URL(path, url);
      if (token !== null) u.searchParams.set("token", token);
      return u.href;
    };

    const expired = await signUploadToken(env, "http://localhost", mira.id, key, Date.now() - 11 * 60 * 1000);
    expect(await json(await put(withToken(expired), TINY_PNG), 403)).toMatchObject({
      code: "forbidden",
      error: "This upload link has expired. Please upload the file again.",
    });

    const token = url.searchParams.get("token")!;
    const [header, payload, signature] = token.split(".");
    const flipped = `${signature!.slice(0, -2)}${signature!.endsWith("AA") ? "BB" : "AA"}`;
    expect(await json(await put(withToken(`${header}.${payload}.${flipped}`), TINY_PNG), 403)).toMatchObject({ code: "forbidden" });
    // A payload naming another key, with the original signature.
    const forged = btoa(JSON.stringify({ ...JSON.parse(atob(payload!.replace(/-/g, "+").replace(/_/g, "/"))), key: `avatars/${mira.id}/other` }))
      .replace(/=+$/, "")
      .replace(/\+/g, "-")
      .replace(/\//g, "_");
    expect((await put(withToken(`${header}.${forged}.${signature}`, `/api/objects/upload/avatars/${mira.id}/other`), TINY_PNG)).status).toBe(403);
    // A valid token used for another key, and no token.
    expect((await put(withToken(token, `/api/objects/upload/avatars/${mira.id}/elsewhere`), TINY_PNG)).status).toBe(403);
    expect((await put(withToken(null), TINY_PNG)).status).toBe(403);
    // A token someone else signed for a key under mira's prefix.
    const tomToken = await signUploadToken(env, "http://localhost", crypto.randomUUID(), key);
    expect((await put(withToken(tomToken), TINY_PNG)).status).toBe(403);
    // The untouched URL still works.
    expect((await put(url.href, TINY_PNG)).status).toBe(200);
    expect(await bucketKeys()).toEqual([key]);
  });

  it("keys outside avatars/ are neither registered nor served", async () => {
    const mira = await signIn();
    await env.AVATARS.put("secrets/config.json", ascii('{"secret":true}'), {
      customMetadata: { contentType: "image/png" },
    });
    for (const avatarURL of ["/objects/secrets/config.json", "/objects/avatars/../secrets/config.json", "/objects/avatars/x"]) {
      expect(await json(await register(mira, avatarURL), 400), avatarURL).toMatchObject({
        code: "validation_failed",
        error: "This is not an avatar upload",
      });
    }
    expect(await json(await register(mira, "https://example.com/picture.png"), 400)).toMatchObject({
      error: "This is not an avatar upload",
    });
    expect(await json(await register(mira, 42), 400)).toMatchObject({ code: "validation_failed" });
    expect(await json(await register(mira, ""), 400)).toMatchObject({ error: "avatarURL is required" });
    expect(await json(await call(`/objects/secrets/config.json`), 404)).toEqual({ error: "Not found", code: "not_found" });
    expect((await call(`/objects/avatars%2F..%2Fsecrets%2Fconfig.json`)).status).toBe(404);
    expect(await json(await call(`/objects/avatars/${mira.id}/${crypto.randomUUID()}`), 404)).toMatchObject({ code: "not_found" });
    expect(await json(await register(mira, `/objects/avatars/${mira.id}/${crypto.randomUUID()}`), 404)).toMatchObject({
      code: "not_found",
    });
  });
});

describe("presigned R2 URLs (R2_S3_ENDPOINT and an R2 API token configured)", () => {
  const r2Env = {
    ...env,
    R2_S3_ENDPOINT: "https://0123456789abcdef.r2.cloudflarestorage.com",
    R2_BUCKET_NAME: "fabled-avatars",
    R2_ACCESS_KEY_ID: "AKIDEXAMPLE0123456789",
    R2_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
  };

  async function fetchWith(testEnv: Env, path: string, init: RequestInit): Promise<Response> {
    const ctx = createExecutionContext();
    const res = await app.fetch(new Request(`http://localhost${path}`, init), testEnv, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  }

  it("hands out a SigV4 presigned PUT to the bucket, for a key of this person, valid 600 s", async () => {
    const mira = await signIn();
    const before = Date.now();
    const res = await fetchWith(r2Env, "/api/objects/upload", { method: "POST", headers: { cookie: mira.cookie } });
    const { uploadURL } = await json<{ uploadURL: string }>(res, 200);
    const url = new URL(uploadURL);
    expect(url.origin).toBe("https://0123456789abcdef.r2.cloudflarestorage.com");
    expect(url.pathname).toMatch(new RegExp(`^/fabled-avatars/avatars/${mira.id}/[0-9a-f-]{36}$`));
    const q = url.searchParams;
    expect(q.get("X-Amz-Algorithm")).toBe("AWS4-HMAC-SHA256");
    expect(q.get("X-Amz-Expires")).toBe("600");
    expect(q.get("X-Amz-SignedHeaders")).toBe("host");
    expect(q.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    const [keyId, date, region, service, terminator] = q.get("X-Amz-Credential")!.split("/");
    expect([keyId, region, service, terminator]).toEqual(["AKIDEXAMPLE0123456789", "auto", "s3", "aws4_request"]);
    const signedAt = q.get("X-Amz-Date")!;
    expect(signedAt.slice(0, 8)).toBe(date);
    const signedMs = Date.parse(
      `${signedAt.slice(0, 4)}-${signedAt.slice(4, 6)}-${signedAt.slice(6, 8)}T${signedAt.slice(9, 11)}:${signedAt.slice(11, 13)}:${signedAt.slice(13, 15)}Z`,
    );
    expect(Math.abs(signedMs - before)).toBeLessThan(60_000);
    expect(q.has("token")).toBe(false);

    // The browser PUTs to R2 directly (simulated here); then registration takes the presigned URL.
    const key = url.pathname.replace("/fabled-avatars/", "");
    await env.AVATARS.put(key, TINY_PNG);
    const registered = await fetchWith(r2Env, "/api/character-avatars", {
      method: "PUT",
      headers: { cookie: mira.cookie, "content-type": "application/json" },
      body: JSON.stringify({ avatarURL: uploadURL }),
    });
    expect(await json(registered, 200)).toEqual({ objectPath: `/objects/${key}` });
  });

  it("each call signs a fresh key", async () => {
    const mira = await signIn();
    const urls = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await fetchWith(r2Env, "/api/objects/upload", { method: "POST", headers: { cookie: mira.cookie } });
      urls.add(new URL((await json(res, 200)).uploadURL).pathname);
    }
    expect(urls.size).toBe(3);
  });

  it("production without R2 or an upload token secret has no upload fallback (503); with the secret it has", async () => {
    const mira = await signIn();
    const production = { ...env, ENVIRONMENT: "production", UPLOAD_TOKEN_SECRET: undefined };
    const res = await fetchWith(production, "/api/objects/upload", { method: "POST", headers: { cookie: mira.cookie } });
    expect(await json(res, 503)).toMatchObject({ code: "unavailable" });

    const withSecret = { ...production, UPLOAD_TOKEN_SECRET: "a-long-random-production-secret" };
    const ok = await fetchWith(withSecret, "/api/objects/upload", { method: "POST", headers: { cookie: mira.cookie } });
    const { uploadURL } = await json(ok, 200);
    const path = new URL(uploadURL).pathname + new URL(uploadURL).search;
    // A token signed with another secret (the development one) is not valid there.
    const devToken = await signUploadToken(env, "http://localhost", mira.id, keyOf(uploadURL));
    const devPath = `${new URL(uploadURL).pathname}?token=${devToken}`;
    expect((await fetchWith(withSecret, devPath, { method: "PUT", body: TINY_PNG })).status).toBe(403);
    expect((await fetchWith(withSecret, path, { method: "PUT", body: TINY_PNG })).status).toBe(200);
  });
});

describe("the fixed development upload-token secret", () => {
  /** The app as the runtime would call it at `origin`, with `overrides` on the bindings. */
  async function at(origin: string, overrides: Partial<Env>, path: string, init: RequestInit = {}): Promise<Response> {
    const ctx = createExecutionContext();
    const res = await app.fetch(new Request(new URL(path, origin), init), { ...env, ...overrides }, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  }
  /** The session cookie of `user` under the name an https origin uses. */
  const secureCookie = (user: TestUser) => user.cookie.replace(/^fabled_session=/, "__Host-fabled_session=");

  it.each(["development", "test"])(
    "with ENVIRONMENT=%s on a real host: no upload URLs (503), and a token forged with the public secret uploads nothing",
    async (environment) => {
      const mira = await signIn();
      const deployed = { ENVIRONMENT: environment, UPLOAD_TOKEN_SECRET: undefined };
      const origin = "https://staging.fabled.example";
      const res = await at(origin, deployed, "/api/objects/upload", { method: "POST", headers: { cookie: secureCookie(mira) } });
      expect(await json(res, 503)).toEqual({ error: "Avatar uploads are not configured on this server", code: "unavailable" });

      // Signed with the fixed secret, as anyone who read this repository could.
      const key = `avatars/${mira.id}/${crypto.randomUUID()}`;
      const forged = await signUploadToken(env, "http://localhost", mira.id, key);
      const put = await at(origin, deployed, `/api/objects/upload/${key}?token=${forged}`, { method: "PUT", body: HTML });
      expect(await json(put, 503)).toMatchObject({ code: "unavailable" });
      expect(await bucketKeys()).toEqual([]);
    },
  );

  it.each(["http://localhost:8787", "http://127.0.0.1:8787", "http://[::1]:8787"])("a local run at %s may use it", async (origin) => {
    const mira = await signIn();
    const local = { ENVIRONMENT: "development", UPLOAD_TOKEN_SECRET: undefined };
    const res = await at(origin, local, "/api/objects/upload", { method: "POST", headers: { cookie: mira.cookie } });
    const { uploadURL } = await json<{ uploadURL: string }>(res, 200);
    expect(new URL(uploadURL).origin).toBe(origin);
    const url = new URL(uploadURL);
    expect((await at(origin, local, url.pathname + url.search, { method: "PUT", body: TINY_PNG })).status).toBe(200);
  });
});

describe("sniffImageType", () => {
  it("knows the four image signatures and nothing else", () => {
    expect(sniffImageType(TINY_PNG)).toBe("image/png");
    expect(sniffImageType(JPEG)).toBe("image/jpeg");
    expect(sniffImageType(GIF)).toBe("image/gif");
    expect(sniffImageType(ascii("GIF87a....."))).toBe("image/gif");
    expect(sniffImageType(WEBP)).toBe("image/webp");
    for (const bytes of [SVG, HTML, TEXT, ascii("RIFF0000WAVE"), new Uint8Array(0), ascii("\x89PNG")]) {
      expect(sniffImageType(bytes)).toBeNull();
    }
  });
});

describe("avatars nobody uses any more", () => {
  /** An uploaded and registered avatar of `user`: its `/objects/…` path. */
  async function avatar(user: TestUser): Promise<string> {
    const { objectPath } = await json<{ objectPath: string }>(await register(user, await upload(user, TINY_PNG)), 200);
    return objectPath;
  }
  const createWith = async (user: TestUser, avatarUrl: string) =>
    (
      await json<{ id: number }>(
        await call("/api/characters", {
          method: "POST",
          user,
          body: { name: "Avatar Keeper", description: "Someone with a face.", personality: "Calm and watchful.", avatarUrl },
        }),
        201,
      )
    ).id;
  /** Status of GET `path` (an avatar as a browser fetches it). */
  const status = async (path: string) => (await call(path)).status;
  // Updates and deletions go through callSettled: they answer once their avatar clean-up after
  // the response is done, so a test sees at once what was deleted and what was kept.

  it("deleting a character deletes its uploaded avatar", async () => {
    const mira = await signIn();
    const path = await avatar(mira);
    const id = await createWith(mira, path);
    expect(await json(await callSettled(`/api/characters/${id}`, { method: "DELETE", user: mira }), 200)).toEqual({ deleted: true });
    expect(await status(path)).toBe(404);
    expect(await bucketKeys()).toEqual([]);
  });

  it("replacing an avatar deletes the old one and keeps the new one", async () => {
    const mira = await signIn();
    const [first, second] = [await avatar(mira), await avatar(mira)];
    const id = await createWith(mira, first);
    const updated = await json(await callSettled(`/api/characters/${id}`, { method: "PUT", user: mira, body: { avatarUrl: second } }), 200);
    expect(updated.avatarUrl).toBe(second);
    expect(await status(first)).toBe(404);
    expect(await status(second)).toBe(200);
    // An update that leaves the avatar alone deletes nothing.
    await json(await callSettled(`/api/characters/${id}`, { method: "PUT", user: mira, body: { name: "Renamed" } }), 200);
    expect(await status(second)).toBe(200);
  });

  it("keeps an avatar another of the creator's characters still shows", async () => {
    const mira = await signIn();
    const path = await avatar(mira);
    const first = await createWith(mira, path);
    await createWith(mira, path);
    await json(await callSettled(`/api/characters/${first}`, { method: "DELETE", user: mira }), 200);
    expect(await status(path)).toBe(200);
  });

  it("never deletes someone else's upload that a character points at", async () => {
    const [mira, theo] = [await signIn(), await signIn()];
    const miras = await avatar(mira);
    // Refused as an avatar today; a character that got it before that rule must not delete it.
    const res = await call("/api/characters", {
      method: "POST",
      user: theo,
      body: { name: "Avatar Keeper", description: "Someone with a face.", personality: "Calm and watchful.", avatarUrl: miras },
    });
    expect(await json(res, 400)).toMatchObject({ code: "validation_failed", issues: [{ path: "avatarUrl" }] });
    const id = await createWith(theo, "https://images.example.test/a.png");
    await env.DB.prepare("UPDATE characters SET avatar_url = ? WHERE id = ?").bind(miras, id).run();
    await json(await callSettled(`/api/characters/${id}`, { method: "DELETE", user: theo }), 200);
    expect(await status(miras)).toBe(200);
  });

  it("a failed delete by the wrong user deletes nothing", async () => {
    const [mira, theo] = [await signIn(), await signIn()];
    const path = await avatar(mira);
    const id = await createWith(mira, path);
    expect((await callSettled(`/api/characters/${id}`, { method: "DELETE", user: theo })).status).toBe(403);
    expect((await callSettled(`/api/characters/${id}`, { method: "PUT", user: theo, body: { avatarUrl: null } })).status).toBe(403);
    expect(await status(path)).toBe(200);
  });
});
