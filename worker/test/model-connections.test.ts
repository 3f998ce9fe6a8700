/**
 * A person's model connections as callers see them (DESIGN.md "Your own
 * model (turn 3)"): `/api/model-connections` from a visitor's, another
 * person's and the owner's side; the key never in an answer and never in
 * D1 as plain text; the one default; the settings' bounds; the endpoint
 * rules (private addresses, loopback in production, schemes, a redirect to
 * a private host); a key that goes only to its own address (a redirect to
 * another origin, a saved key tested or saved with another origin's URL:
 * issue 42, against a second loopback origin that records what reaches
 * it); "Test connection" against the loopback OpenAI-compatible
 * server (worker/test/openai-server.ts); a conversation's model
 * (`PATCH /api/conversations/{id}`); and what an account's deletion takes.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { crossOriginRedirectMessage, endpointProblem, type EndpointPolicy, EndpointRefused } from "../../ai/endpoint-guard.ts";
import { PersonChatModel } from "../../ai/model-connection.ts";
import { currentKeyId, decryptApiKey } from "../../ai/model-keys.ts";
import type { Conversation } from "../../schema/chat.ts";
import { KEY_STAYS_WITH_ITS_ADDRESS, type ModelConnection } from "../../schema/model-connections.ts";
import { rewrapApiKeys } from "../lib/model-connections.ts";
import { call, countRows, json } from "./creator-api.ts";
import { clearCatalog, insertCharacter, signIn, type TestUser } from "./fixtures.ts";
import { OPENAI_TEST_KEY, OPENAI_TEST_MODELS, type RecordedRequest } from "./openai-server.ts";
import { startChat } from "./room-chat.ts";

const NOT_FOUND = { error: "Model connection not found", code: "not_found" };

/** A key that looks like a real one, so a leak is unmistakable. */
const SECRET_KEY = "sk-live-this-must-never-leak-7Q2x";

const create = async (user: TestUser, body: Record<string, unknown>) =>
  json<ModelConnection>(await call("/api/model-connections", { method: "POST", user, body }), 201);

const list = async (user: TestUser) => json<ModelConnection[]>(await call("/api/model-connections", { user }), 200);

const openaiConnection = (extra: Record<string, unknown> = {}) => ({
  name: "My endpoint",
  kind: "openai",
  baseUrl: env.OPENAI_BASE_URL,
  apiKey: SECRET_KEY,
  model: "echo",
  ...extra,
});

/** The 400 body of a POST of `body`. */
async function refused(user: TestUser, body: Record<string, unknown>) {
  return json<{ error: string; code: string; issues: { path: string; message: string }[] }>(
    await call("/api/model-connections", { method: "POST", user, body }),
    400,
  );
}

beforeEach(async () => {
  await clearCatalog();
  await env.DB.prepare("DELETE FROM users").run();
});

describe("the owner", () => {
  it("creates, lists, updates and deletes a connection; the key is never answered, only its last four characters", async () => {
    const mira = await signIn();
    const res = await call("/api/model-connections", {
      method: "POST",
      user: mira,
      body: openaiConnection({ settings: { temperature: 0.7, maxTokens: 300, stop: ["\nUser:"] } }),
    });
    const text = await res.clone().text();
    const created = await json<ModelConnection>(res, 201);
    expect(text).not.toContain(SECRET_KEY);
    expect(created).toEqual({
      id: expect.any(String),
      name: "My endpoint",
      kind: "openai",
      baseUrl: env.OPENAI_BASE_URL,
      model: "echo",
      embeddingModel: null,
      imageModel: null,
      keyHint: "7Q2x",
      settings: { temperature: 0.7, maxTokens: 300, stop: ["\nUser:"] },
      // The first connection is the default.
      isDefault: true,
    });

    const listed = await call("/api/model-connections", { user: mira });
    expect(await listed.clone().text()).not.toContain(SECRET_KEY);
    expect(await json(listed, 200)).toEqual([created]);

    const renamed = await call(`/api/model-connections/${created.id}`, { method: "PUT", user: mira, body: { name: "Renamed", settings: { topP: 0.5 } } });
    expect(await renamed.clone().text()).not.toContain(SECRET_KEY);
    expect(await json(renamed, 200)).toEqual({ ...created, name: "Renamed", settings: { topP: 0.5 } });
    const embedding = await call(`/api/model-connections/${created.id}`, { method: "PUT", user: mira, body: { embeddingModel: "nomic-embed-text" } });
    expect(await json(embedding, 200)).toMatchObject({ embeddingModel: "nomic-embed-text" });
    const noEmbedding = await call(`/api/model-connections/${created.id}`, { method: "PUT", user: mira, body: { embeddingModel: "" } });
    expect(await json(noEmbedding, 200)).toMatchObject({ embeddingModel: null });

    const rekeyed = await json<ModelConnection>(
      await call(`/api/model-connections/${created.id}`, { method: "PUT", user: mira, body: { apiKey: "sk-other-key-9999" } }),
      200,
    );
    expect(rekeyed.keyHint).toBe("9999");
    const unkeyed = await json<ModelConnection>(await call(`/api/model-connections/${created.id}`, { method: "PUT", user: mira, body: { apiKey: null } }), 200);
    expect(unkeyed.keyHint).toBeNull();

    const deleted = await call(`/api/model-connections/${created.id}`, { method: "DELETE", user: mira });
    expect(deleted.status).toBe(204);
    expect(await list(mira)).toEqual([]);
    expect(await json(await call(`/api/model-connections/${created.id}`, { method: "DELETE", user: mira }), 404)).toEqual(NOT_FOUND);
  });

  it("stores the key only encrypted, bound to its row and owner", async () => {
    const mira = await signIn();
    const created = await create(mira, openaiConnection());
    const row = await env.DB.prepare("SELECT * FROM model_connections WHERE id = ?").bind(created.id).first<Record<string, unknown>>();
    expect(JSON.stringify(row)).not.toContain(SECRET_KEY);
    expect(JSON.stringify(row)).not.toContain(btoa(SECRET_KEY).slice(0, 12));
    const sealed = String(row!.api_key_encrypted);
    expect(sealed).toMatch(/^v1\.[0-9a-f]{8}\./);
    expect(await decryptApiKey(env, { connectionId: created.id, userId: mira.id }, sealed)).toBe(SECRET_KEY);
    // Copied onto another person's row, the ciphertext does not open.
    const other = await signIn();
    await expect(decryptApiKey(env, { connectionId: created.id, userId: other.id }, sealed)).rejects.toThrow();
    // And under another secret it does not open either.
    await expect(decryptApiKey({ ...env, MODEL_KEYS_SECRET: "another secret" }, { connectionId: created.id, userId: mira.id }, sealed)).rejects.toThrow();
    // A rotation keeps it readable through the previous secret.
    await expect(
      decryptApiKey({ ...env, MODEL_KEYS_SECRET: "the new secret", MODEL_KEYS_SECRET_PREVIOUS: "fabled-development-model-keys-secret" }, { connectionId: created.id, userId: mira.id }, sealed),
    ).resolves.toBe(SECRET_KEY);
  });

  it("after a rotation of the secret, the person's keys are re-encrypted under the new one", async () => {
    const mira = await signIn();
    const created = await create(mira, openaiConnection());
    const rotated = { ...env, MODEL_KEYS_SECRET: "the new secret", MODEL_KEYS_SECRET_PREVIOUS: "fabled-development-model-keys-secret" };
    const sealed = async () =>
      String((await env.DB.prepare("SELECT api_key_encrypted AS s FROM model_connections WHERE id = ?").bind(created.id).first<{ s: string }>())!.s);
    const before = await sealed();
    expect(before.startsWith(`v1.${await currentKeyId(env)}.`)).toBe(true);
    expect(await rewrapApiKeys(rotated, mira.id)).toBe(1);
    const after = await sealed();
    expect(after.startsWith(`v1.${await currentKeyId(rotated)}.`)).toBe(true);
    expect(await decryptApiKey({ ENVIRONMENT: "production", MODEL_KEYS_SECRET: "the new secret" }, { connectionId: created.id, userId: mira.id }, after)).toBe(
      SECRET_KEY,
    );
    // Done once: nothing is left under the old secret.
    expect(await rewrapApiKeys(rotated, mira.id)).toBe(0);
  });

  it("keeps one default: a new default takes it from the old one", async () => {
    const mira = await signIn();
    const first = await create(mira, openaiConnection({ name: "First" }));
    const second = await create(mira, { name: "Site", kind: "site", model: "offline" });
    expect(second.isDefault).toBe(false);
    const third = await create(mira, openaiConnection({ name: "Third", isDefault: true }));
    expect((await list(mira)).map((c) => [c.name, c.isDefault])).toEqual([
      ["Third", true],
      ["First", false],
      ["Site", false],
    ]);
    await json(await call(`/api/model-connections/${first.id}`, { method: "PUT", user: mira, body: { isDefault: true } }), 200);
    expect((await list(mira)).filter((c) => c.isDefault).map((c) => c.id)).toEqual([first.id]);
    expect(third.id).not.toBe(first.id);
  });

  it("gets the site's models, and a site connection must name one of them (no URL, no key kept)", async () => {
    const mira = await signIn();
    expect(await json(await call("/api/model-connections/site-models", { user: mira }), 200)).toEqual({ models: ["offline"], default: "offline" });
    const site = await create(mira, { name: "Site", kind: "site", baseUrl: "https://ignored.example/v1", apiKey: "sk-ignored-1234", model: "offline" });
    expect(site).toMatchObject({ kind: "site", baseUrl: null, keyHint: null });
    expect((await refused(mira, { name: "Site", kind: "site", model: "gpt-9" })).issues).toEqual([
      { path: "model", message: "Model must be one of this site's models: offline" },
    ]);
  });

  it("is told what is wrong with settings, in words", async () => {
    const mira = await signIn();
    const issue = async (settings: unknown) => (await refused(mira, openaiConnection({ settings }))).issues[0];
    expect(await issue({ temperature: 3 })).toEqual({ path: "settings.temperature", message: "Temperature must be between 0 and 2" });
    expect(await issue({ topP: -0.1 })).toEqual({ path: "settings.topP", message: "Top-p must be between 0 and 1" });
    expect(await issue({ maxTokens: 8 })).toEqual({ path: "settings.maxTokens", message: "Max reply tokens must be between 16 and 4096" });
    expect(await issue({ maxTokens: 100.5 })).toEqual({ path: "settings.maxTokens", message: "Max reply tokens must be a whole number" });
    expect(await issue({ contextTokens: 200000 })).toEqual({ path: "settings.contextTokens", message: "Context size must be between 1024 and 131072" });
    expect(await issue({ frequencyPenalty: 2.5 })).toEqual({ path: "settings.frequencyPenalty", message: "Frequency penalty must be between -2 and 2" });
    expect(await issue({ stop: Array(9).fill("x") })).toEqual({ path: "settings.stop", message: "At most 8 stop strings" });
    expect((await issue({ seed: 1 }))?.path).toBe("settings");
    expect((await refused(mira, { name: "No URL", kind: "openai", model: "echo" })).issues).toEqual([
      { path: "baseUrl", message: "Base URL is required for an OpenAI-compatible endpoint" },
    ]);
    expect(await list(mira)).toEqual([]);
  });
});

describe("another person", () => {
  it("gets 404 for someone else's connection and changes nothing", async () => {
    const mira = await signIn();
    const theo = await signIn();
    const mine = await create(mira, openaiConnection());
    expect(await list(theo)).toEqual([]);
    expect(await json(await call(`/api/model-connections/${mine.id}`, { method: "PUT", user: theo, body: { name: "Taken" } }), 404)).toEqual(NOT_FOUND);
    expect(await json(await call(`/api/model-connections/${mine.id}`, { method: "DELETE", user: theo }), 404)).toEqual(NOT_FOUND);
    // Nor can Theo test an endpoint with Mira's stored key.
    expect(
      await json(await call("/api/model-connections/test", { method: "POST", user: theo, body: { baseUrl: env.OPENAI_BASE_URL, id: mine.id } }), 404),
    ).toEqual(NOT_FOUND);
    expect(await list(mira)).toEqual([mine]);
  });

  it("cannot pick someone else's connection for a chat, nor pick a model in someone else's chat", async () => {
    const mira = await signIn();
    const theo = await signIn();
    const characterId = await insertCharacter({ name: "Ash" });
    const mine = await create(mira, openaiConnection());
    const theirs = await create(theo, openaiConnection());
    const chat = await startChat(mira, characterId);
    const patch = (user: TestUser, conversationId: string, modelConnectionId: string | null) =>
      call(`/api/conversations/${conversationId}`, { method: "PATCH", user, body: { modelConnectionId } });
    expect(await json(await patch(mira, chat.id, theirs.id), 400)).toMatchObject({
      code: "validation_failed",
      issues: [{ path: "modelConnectionId", message: "Pick one of your model connections (or none for your default)" }],
    });
    expect(await json(await patch(theo, chat.id, theirs.id), 404)).toEqual({ error: "Conversation not found", code: "not_found" });
    const picked = await json<Conversation>(await patch(mira, chat.id, mine.id), 200);
    expect(picked.modelConnectionId).toBe(mine.id);
    expect((await json<Conversation>(await call(`/api/conversations/${chat.id}`, { user: mira }), 200)).modelConnectionId).toBe(mine.id);
    // Deleting the connection sends the chat back to the default.
    await call(`/api/model-connections/${mine.id}`, { method: "DELETE", user: mira });
    expect((await json<Conversation>(await call(`/api/conversations/${chat.id}`, { user: mira }), 200)).modelConnectionId).toBeNull();
  });
});

describe("visitors and deleted accounts", () => {
  it("visitors get 401", async () => {
    expect((await call("/api/model-connections")).status).toBe(401);
    expect((await call("/api/model-connections", { method: "POST", body: openaiConnection() })).status).toBe(401);
  });

  it("a deleted account takes its connections and keys with it", async () => {
    const mira = await signIn();
    await create(mira, openaiConnection());
    await create(mira, openaiConnection({ name: "Second" }));
    expect(await countRows("model_connections", "user_id = ?", mira.id)).toBe(2);
    await env.DB.prepare("DELETE FROM users WHERE id = ?").bind(mira.id).run();
    expect(await countRows("model_connections", "user_id = ?", mira.id)).toBe(0);
  });
});

describe("endpoint rules", () => {
  it("refuses private, loopback and link-local addresses, other schemes and the site itself", async () => {
    const mira = await signIn();
    const reason = async (baseUrl: string) => (await refused(mira, openaiConnection({ baseUrl }))).issues[0]?.message;
    const PRIVATE = "Base URL cannot be a private, loopback or link-local address";
    expect(await reason("https://10.0.0.8/v1")).toBe(PRIVATE);
    expect(await reason("https://192.168.1.20:11434/v1")).toBe(PRIVATE);
    expect(await reason("https://172.16.5.4/v1")).toBe(PRIVATE);
    expect(await reason("https://169.254.169.254/latest")).toBe(PRIVATE);
    expect(await reason("https://[::1]/v1")).toBe(PRIVATE);
    expect(await reason("https://[fd00::1]/v1")).toBe(PRIVATE);
    expect(await reason("https://[fe80::1]/v1")).toBe(PRIVATE);
    expect(await reason("https://[::ffff:10.0.0.1]/v1")).toBe(PRIVATE);
    expect(await reason("https://167772161/v1")).toBe(PRIVATE);
    expect(await reason("https://0x7f.0.0.2/v1")).toBe(PRIVATE);
    expect(await reason("ftp://models.example/v1")).toBe("Base URL must start with https://");
    expect(await reason("file:///etc/passwd")).toBe("Base URL must start with https://");
    expect(await reason("http://models.example/v1")).toBe("Base URL must start with https:// (http:// is allowed for localhost and 127.0.0.1 only)");
    expect(await reason("not a url")).toBe("Base URL must be a full URL such as https://openrouter.ai/api/v1");
    expect(await reason("https://user:pw@models.example/v1")).toContain("must not contain a user name or password");
    // The tests' site is http://localhost.
    expect(await reason("http://localhost/api")).toBe("Base URL cannot be this site itself");
    expect(await list(mira)).toEqual([]);
    // Public https and, in development, loopback http are fine.
    await create(mira, openaiConnection({ baseUrl: "https://openrouter.ai/api/v1" }));
    await create(mira, openaiConnection({ baseUrl: "http://127.0.0.1:11434/v1" }));
    await create(mira, openaiConnection({ baseUrl: "http://localhost:8080/v1" }));
  });

  it("in production, allows only https to public hosts (no localhost, no loopback http)", () => {
    const production: EndpointPolicy = { development: false, siteHost: "fabled.example" };
    expect(endpointProblem("https://api.openai.com/v1", production)).toBeNull();
    expect(endpointProblem("https://openrouter.ai/api/v1", production)).toBeNull();
    expect(endpointProblem("http://localhost:11434/v1", production)).toBe("Base URL cannot point at this server (localhost)");
    expect(endpointProblem("http://127.0.0.1:11434/v1", production)).toBe("Base URL cannot be a private, loopback or link-local address");
    expect(endpointProblem("https://2130706433/v1", production)).toBe("Base URL cannot be a private, loopback or link-local address");
    expect(endpointProblem("http://models.example/v1", production)).toBe("Base URL must start with https://");
    expect(endpointProblem("https://localhost/v1", production)).toBe("Base URL cannot point at this server (localhost)");
    expect(endpointProblem("https://models.localhost/v1", production)).toBe("Base URL cannot point at this server (localhost)");
    expect(endpointProblem("https://127.0.0.1/v1", production)).toBe("Base URL cannot be a private, loopback or link-local address");
    expect(endpointProblem("https://100.64.0.1/v1", production)).toBe("Base URL cannot be a private, loopback or link-local address");
    expect(endpointProblem("https://[64:ff9b::a00:1]/v1", production)).toBe("Base URL cannot be a private, loopback or link-local address");
    expect(endpointProblem("https://fabled.example/api", production)).toBe("Base URL cannot be this site itself");
    expect(endpointProblem("https://fabled.example:8443/api", production)).toBe("Base URL cannot be this site itself");
    expect(endpointProblem("https://8.8.8.8/v1", production)).toBeNull();
  });
});

/**
 * Every address form an attacker tries (issue 42), with the host the URL
 * parser hands to the guard: IPv4 in decimal, octal, hex and short forms;
 * IPv6 forms that carry IPv4 or reserved space; names that spell an
 * internal address.
 */
const SSRF_TABLE: [url: string, hostSeen: string][] = [
  ["https://2130706433/v1", "127.0.0.1"],
  ["https://0177.0.0.1/v1", "127.0.0.1"],
  ["https://0x7f.1/v1", "127.0.0.1"],
  ["https://127.1/v1", "127.0.0.1"],
  ["https://0x7f000001/v1", "127.0.0.1"],
  ["https://0/v1", "0.0.0.0"],
  ["https://0xa9fea9fe/latest", "169.254.169.254"],
  ["https://10.1/v1", "10.0.0.1"],
  ["https://192.0.2.10/v1", "192.0.2.10"],
  ["https://255.255.255.255/v1", "255.255.255.255"],
  ["https://[::]/v1", "[::]"],
  ["https://[::1]/v1", "[::1]"],
  ["https://[0:0:0:0:0:0:0:1]/v1", "[::1]"],
  ["https://[::ffff:7f00:1]/v1", "[::ffff:7f00:1]"],
  ["https://[::ffff:127.0.0.1]/v1", "[::ffff:7f00:1]"],
  ["https://[0:0:0:0:0:ffff:7f00:1]/v1", "[::ffff:7f00:1]"],
  ["https://[0000:0000:0000:0000:0000:FFFF:127.0.0.1]/v1", "[::ffff:7f00:1]"],
  ["https://[::ffff:169.254.169.254]/v1", "[::ffff:a9fe:a9fe]"],
  ["https://[::ffff:8.8.8.8]/v1", "[::ffff:808:808]"],
  ["https://[::ffff:0:7f00:1]/v1", "[::ffff:0:7f00:1]"],
  ["https://[::127.0.0.1]/v1", "[::7f00:1]"],
  ["https://[64:ff9b::7f00:1]/v1", "[64:ff9b::7f00:1]"],
  ["https://[64:ff9b::808:808]/v1", "[64:ff9b::808:808]"],
  ["https://[64:ff9b:1::a00:1]/v1", "[64:ff9b:1::a00:1]"],
  ["https://[2002:7f00:1::]/v1", "[2002:7f00:1::]"],
  ["https://[2002:a9fe:a9fe::1]/v1", "[2002:a9fe:a9fe::1]"],
  ["https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/v1", "[2001:0:4136:e378:8000:63bf:3fff:fdd2]"],
  ["https://[2001:db8::1]/v1", "[2001:db8::1]"],
  ["https://[100::1]/v1", "[100::1]"],
  ["https://[fc00::1]/v1", "[fc00::1]"],
  ["https://[fd12:3456::1]/v1", "[fd12:3456::1]"],
  ["https://[fe80::1]/v1", "[fe80::1]"],
  ["https://[febf::1]/v1", "[febf::1]"],
  ["https://[ff02::1]/v1", "[ff02::1]"],
  ["https://127.0.0.1.nip.io/v1", "127.0.0.1.nip.io"],
  ["https://10-0-0-1.sslip.io/v1", "10-0-0-1.sslip.io"],
  ["https://app.169.254.169.254.nip.io/v1", "app.169.254.169.254.nip.io"],
];

describe("every address form (the SSRF table of issue 42)", () => {
  const PRIVATE = "Base URL cannot be a private, loopback or link-local address";
  const production: EndpointPolicy = { development: false, siteHost: "fabled.example" };

  it("reaches the guard in the form the URL parser gives, and is refused in production", () => {
    for (const [url, hostSeen] of SSRF_TABLE) {
      expect(new URL(url).hostname, url).toBe(hostSeen);
      expect(endpointProblem(url, production), url).toBe(PRIVATE);
    }
    for (const url of ["https://localhost/v1", "https://LOCALHOST./v1", "https://api.localhost/v1"]) {
      expect(endpointProblem(url, production), url).toBe("Base URL cannot point at this server (localhost)");
    }
  });

  it("is refused through the API too, and nothing is stored", async () => {
    const mira = await signIn();
    for (const [baseUrl] of SSRF_TABLE) {
      expect((await refused(mira, openaiConnection({ baseUrl }))).issues, baseUrl).toEqual([{ path: "baseUrl", message: PRIVATE }]);
    }
    expect(await list(mira)).toEqual([]);
  });

  it("public addresses and names stay allowed", () => {
    for (const url of [
      "https://api.openai.com/v1",
      "https://openrouter.ai/api/v1",
      "https://8.8.8.8/v1",
      "https://[2606:4700:4700::1111]/v1",
      "https://[2001:4860:4860::8888]/v1",
      "https://1.2.3.4.nip.io/v1",
      "https://llm-10.example.com/v1",
    ]) {
      expect(endpointProblem(url, production), url).toBeNull();
    }
  });

  it("the site's own host is refused in development as in production, in every spelling of loopback", () => {
    const local: EndpointPolicy = { development: true, siteHost: "localhost:8787" };
    for (const url of ["http://localhost:8787/api", "http://127.0.0.1:8787/api", "http://[::1]:8787/api", "http://app.localhost:8787/api"]) {
      expect(endpointProblem(url, local), url).toBe("Base URL cannot be this site itself");
    }
    // Other ports on loopback are other programs (Ollama, llama.cpp).
    expect(endpointProblem("http://localhost:11434/v1", local)).toBeNull();
    expect(endpointProblem("http://127.0.0.1:8080/v1", local)).toBeNull();
    const named: EndpointPolicy = { development: true, siteHost: "fabled.test:8787" };
    expect(endpointProblem("https://fabled.test/v1", named)).toBe("Base URL cannot be this site itself");
    expect(endpointProblem("https://FABLED.test.:9443/v1", named)).toBe("Base URL cannot be this site itself");
  });
});

describe("Test connection", () => {
  const test = (user: TestUser, body: Record<string, unknown>) => call("/api/model-connections/test", { method: "POST", user, body });

  it("lists the endpoint's models, with a typed key or the saved one", async () => {
    const mira = await signIn();
    const sorted = [...OPENAI_TEST_MODELS].sort();
    expect(await json(await test(mira, { baseUrl: env.OPENAI_BASE_URL, apiKey: OPENAI_TEST_KEY }), 200)).toEqual({ models: sorted });
    const saved = await create(mira, openaiConnection({ apiKey: OPENAI_TEST_KEY }));
    expect(await json(await test(mira, { baseUrl: env.OPENAI_BASE_URL, id: saved.id }), 200)).toEqual({ models: sorted });
  });

  it("says what a failing endpoint answered, never repeating the key it echoed", async () => {
    const mira = await signIn();
    const res = await test(mira, { baseUrl: env.OPENAI_BASE_URL, apiKey: SECRET_KEY });
    expect(await res.clone().text()).not.toContain(SECRET_KEY);
    expect(await json(res, 400)).toMatchObject({ error: "Your model endpoint answered 401 — check the key in Settings → Models." });
    const origin = new URL(env.OPENAI_BASE_URL).origin;
    expect(await json(await test(mira, { baseUrl: `${origin}/nowhere/v1`, apiKey: OPENAI_TEST_KEY }), 400)).toMatchObject({
      error: "Your model endpoint answered 404 — check the base URL and the model in Settings → Models.",
    });
  });

  it("refuses a redirect to a private host, and private addresses outright", async () => {
    const mira = await signIn();
    const origin = new URL(env.OPENAI_BASE_URL).origin;
    expect(await json(await test(mira, { baseUrl: `${origin}/redirect-private/v1`, apiKey: OPENAI_TEST_KEY }), 400)).toMatchObject({
      error: "Base URL cannot be a private, loopback or link-local address",
      issues: [{ path: "baseUrl" }],
    });
    expect(await json(await test(mira, { baseUrl: "https://10.1.2.3/v1" }), 400)).toMatchObject({
      error: "Base URL cannot be a private, loopback or link-local address",
    });
  });
});

describe("a key goes only to its own address (issue 42)", () => {
  const test = (user: TestUser, body: Record<string, unknown>) => call("/api/model-connections/test", { method: "POST", user, body });
  const origin = () => new URL(env.OPENAI_BASE_URL).origin;
  /** What the second origin received under `token`. */
  const received = async (token: string) =>
    json<RecordedRequest[]>(await fetch(`${env.TEST_OTHER_ORIGIN}/__test/received/${token}`), 200);

  it("an endpoint answering 307 to another origin gets neither the key nor a request there (Test connection)", async () => {
    const mira = await signIn();
    const token = crypto.randomUUID();
    const res = await test(mira, { baseUrl: `${origin()}/redirect-other/${token}/v1`, apiKey: OPENAI_TEST_KEY });
    expect(await json(res, 400)).toMatchObject({
      error: crossOriginRedirectMessage(env.TEST_OTHER_ORIGIN),
      code: "validation_failed",
      issues: [{ path: "baseUrl" }],
    });
    expect(await received(token)).toEqual([]);
  });

  it("a redirect within the same origin is followed with the key", async () => {
    const mira = await signIn();
    expect(await json(await test(mira, { baseUrl: `${origin()}/redirect-same/v1`, apiKey: OPENAI_TEST_KEY }), 200)).toEqual({
      models: [...OPENAI_TEST_MODELS].sort(),
    });
  });

  it("a chat's prompt and key do not follow a redirect to another origin", async () => {
    const token = crypto.randomUUID();
    const model = new PersonChatModel({
      baseUrl: `${origin()}/redirect-other/${token}/v1`,
      apiKey: OPENAI_TEST_KEY,
      model: "echo",
      policy: { development: true, siteHost: null },
    });
    const reply = async () => {
      let text = "";
      for await (const piece of model.stream([{ role: "user", content: "my secret persona" }], { maxTokens: 50 })) text += piece;
      return text;
    };
    await expect(reply()).rejects.toThrow(EndpointRefused);
    expect(await received(token)).toEqual([]);
  });

  it("Test connection with a saved key sends it only to the saved address's origin", async () => {
    const mira = await signIn();
    const saved = await create(mira, openaiConnection({ apiKey: OPENAI_TEST_KEY }));
    const token = crypto.randomUUID();
    const elsewhere = await test(mira, { baseUrl: `${env.TEST_OTHER_ORIGIN}/record/${token}/v1`, id: saved.id });
    expect(await json(elsewhere, 400)).toEqual({
      error: KEY_STAYS_WITH_ITS_ADDRESS,
      code: "validation_failed",
      issues: [{ path: "apiKey", message: KEY_STAYS_WITH_ITS_ADDRESS }],
    });
    expect(await received(token)).toEqual([]);
    // Another path of the same origin is the same address (as a same-origin redirect is).
    expect(await json(await test(mira, { baseUrl: `${origin()}/redirect-same/v1`, id: saved.id }), 200)).toEqual({ models: [...OPENAI_TEST_MODELS].sort() });
    // A key typed again may go anywhere the rules allow: it is the person's own act.
    const typed = await test(mira, { baseUrl: `${env.TEST_OTHER_ORIGIN}/record/${token}/v1`, apiKey: "sk-typed-here", id: saved.id });
    expect(await json(typed, 200)).toEqual({ models: ["stolen"] });
    expect((await received(token)).map((r) => r.authorization)).toEqual(["Bearer sk-typed-here"]);
  });

  it("moving a saved connection to another origin needs the key typed again, and keeps the old address until then", async () => {
    const mira = await signIn();
    const saved = await create(mira, openaiConnection({ apiKey: OPENAI_TEST_KEY }));
    const elsewhere = `${env.TEST_OTHER_ORIGIN}/v1`;
    const moved = await call(`/api/model-connections/${saved.id}`, { method: "PUT", user: mira, body: { baseUrl: elsewhere } });
    expect(await json(moved, 400)).toEqual({
      error: KEY_STAYS_WITH_ITS_ADDRESS,
      code: "validation_failed",
      issues: [{ path: "apiKey", message: KEY_STAYS_WITH_ITS_ADDRESS }],
    });
    expect(await list(mira)).toEqual([saved]);
    // Same origin, another path: the key stays.
    const samePlace = `${origin()}/redirect-same/v1`;
    expect(await json(await call(`/api/model-connections/${saved.id}`, { method: "PUT", user: mira, body: { baseUrl: samePlace } }), 200)).toMatchObject({
      baseUrl: samePlace,
      keyHint: OPENAI_TEST_KEY.slice(-4),
    });
    // With a new key, or without any, the move is the person's.
    expect(await json(await call(`/api/model-connections/${saved.id}`, { method: "PUT", user: mira, body: { baseUrl: elsewhere, apiKey: "sk-new-one-5678" } }), 200)).toMatchObject({
      baseUrl: elsewhere,
      keyHint: "5678",
    });
    const keyless = await create(mira, openaiConnection({ apiKey: null }));
    expect(await json(await call(`/api/model-connections/${keyless.id}`, { method: "PUT", user: mira, body: { baseUrl: elsewhere } }), 200)).toMatchObject({
      baseUrl: elsewhere,
      keyHint: null,
    });
  });
});
