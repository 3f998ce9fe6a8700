/**
 * The data export (`GET /api/profile/export`, DESIGN.md turn 4 "Your
 * account, your data"; worker/lib/account/export.ts), unzipped with fflate
 * and read as another app would: the profile, characters as CharX (Card V3
 * `card.json` with the avatar inside by an `embeded://` URI), lorebooks as
 * SillyTavern World Info, chats as SillyTavern JSONL, and JSON for the
 * rest; no secret anywhere in the bytes; one export a minute (429 with
 * Retry-After); an export racing the person's writes is still a whole zip.
 */
import { env } from "cloudflare:workers";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import type { Comment } from "../../schema/api.ts";
import { join } from "./chat-client.ts";
import { call, json, TINY_PNG } from "./creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "./fixtures.ts";
import { startChat } from "./room-chat.ts";
import { putAvatar } from "../lib/uploads.ts";
import { sha256Hex } from "../lib/sessions.ts";

const SECRET_KEY = "sk-live-export-must-never-carry-9Zq";

async function exportOf(user: TestUser): Promise<Record<string, Uint8Array>> {
  const res = await call("/api/profile/export", { user });
  expect(res.status, res.status === 200 ? "" : await res.clone().text()).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/zip");
  expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="fabled-.*\.zip"/);
  return unzipSync(new Uint8Array(await res.arrayBuffer()));
}

const jsonFile = (files: Record<string, Uint8Array>, name: string) => JSON.parse(strFromU8(files[name]!));
const allowAgain = (user: TestUser) => env.DB.prepare("UPDATE users SET last_export_at = ? WHERE id = ?").bind(Date.now() - 61_000, user.id).run();

const BOOK = {
  name: "Harbor lore",
  entries: [
    { keys: ["lighthouse"], content: "The lighthouse has been dark for ten years.", enabled: true, insertion_order: 5, position: "before_char", extensions: { depth: 2, probability: 80 } },
    { keys: ["tide"], secondary_keys: ["moon"], content: "Tides follow the moon.", enabled: false, insertion_order: 10, selective: true },
  ],
};

describe("what the export holds", () => {
  it("has every kind of thing the person made or chose, in formats other apps read, and no secret", async () => {
    const mira = await signIn({ firstName: "Mira" });
    const key = `avatars/${mira.id}/${crypto.randomUUID()}`;
    await putAvatar(env.AVATARS, key, TINY_PNG, "image/png", mira.id);
    const characterId = await insertCharacter({ name: "Wren of the Harbor", creatorId: mira.id, creator: "mira" });
    await env.DB.prepare("UPDATE characters SET avatar_url = ?, character_book = ? WHERE id = ?").bind(`/objects/${key}`, JSON.stringify(BOOK), characterId).run();
    const other = await insertCharacter({ name: "Bystander" });

    const chat = await startChat(mira, characterId);
    const { socket } = await join(mira, chat.id);
    await socket.chat(chat.id, "Where is the lighthouse keeper?");
    socket.close();
    const comment = await json<Comment>(await call(`/api/characters/${other}/comments`, { method: "POST", user: mira, body: { content: "Lovely bystander." } }), 201);
    expect((await call(`/api/characters/${other}/favorite`, { method: "POST", user: mira })).status).toBe(200);
    const theo = await signIn({ firstName: "Theo" });
    expect((await call(`/api/users/${encodeURIComponent(theo.username)}/follow`, { method: "PUT", user: mira })).status).toBe(200);
    expect((await call("/api/personas", { method: "POST", user: mira, body: { name: "Captain Mira", description: "Salt in her hair." } })).status).toBe(201);
    const connection = await call("/api/model-connections", {
      method: "POST",
      user: mira,
      body: { name: "My endpoint", kind: "openai", baseUrl: env.OPENAI_BASE_URL, apiKey: SECRET_KEY, model: "echo" },
    });
    expect(connection.status, await connection.clone().text()).toBe(201);
    await env.DB.prepare("UPDATE users SET auth_subject = ? WHERE id = ?").bind(`https://issuer.test subject-${mira.id}`, mira.id).run();
    expect((await call(`/api/conversations/${chat.id}/memories`, { method: "POST", user: mira, body: { text: "The keeper left in spring." } })).status).toBe(201);
    const standalone = await call("/api/lorebooks", { method: "POST", user: mira, body: { name: "Harbor towns", entries: [{ keys: ["Saltmere"], content: "Saltmere stands on stilts.", order: 7 }] } });
    const standaloneId = (await json<{ id: string }>(standalone, 201)).id;
    const blocked = await signIn({ firstName: "Nox" });
    expect((await call(`/api/users/${encodeURIComponent(blocked.username)}/block`, { method: "PUT", user: mira })).status).toBe(204);
    const blocker = await signIn({ firstName: "Ivo" });
    expect((await call(`/api/users/${encodeURIComponent(mira.username)}/block`, { method: "PUT", user: blocker })).status).toBe(204);

    const share = await json<{ token: string }>(await call(`/api/conversations/${chat.id}/shares`, { method: "POST", user: mira, body: {} }), 201);

    const files = await exportOf(mira);
    const names = Object.keys(files);
    expect(names).toEqual(
      expect.arrayContaining(["README.txt", "profile.json", "comments.json", "comment-votes.json", "favorites.json", "follows.json", "personas.json", "model-connections.json", "sessions.json", "memories.json", "blocks.json", "shares.json"]),
    );

    expect(jsonFile(files, "profile.json")).toMatchObject({ id: mira.id, username: mira.username, firstName: "Mira" });

    // The character as CharX: a zip with card.json (V3) and the avatar under assets/, named by an embeded:// URI.
    const charxName = names.find((name) => /^characters\/\d+-Wren_of_the_Harbor\.charx$/.test(name))!;
    expect(charxName).toBeDefined();
    const charx = unzipSync(files[charxName]!);
    const card = JSON.parse(strFromU8(charx["card.json"]!));
    expect(card).toMatchObject({ spec: "chara_card_v3", spec_version: "3.0", data: { name: "Wren of the Harbor", first_mes: "Hello there." } });
    expect(card.data.assets).toEqual([{ type: "icon", uri: "embeded://assets/icon/images/main.png", name: "main", ext: "png" }]);
    expect(charx["assets/icon/images/main.png"]).toEqual(TINY_PNG);
    expect(card.data.character_book).toMatchObject({ name: "Harbor lore" });

    // The lorebook as SillyTavern World Info.
    const lorebook = jsonFile(files, charxName.replace(/^characters\//, "lorebooks/").replace(/\.charx$/, ".json"));
    expect(lorebook.entries["0"]).toMatchObject({ uid: 0, key: ["lighthouse"], content: "The lighthouse has been dark for ten years.", order: 5, position: 0, disable: false, depth: 2, probability: 80 });
    expect(lorebook.entries["1"]).toMatchObject({ uid: 1, key: ["tide"], keysecondary: ["moon"], selective: true, disable: true, position: 1 });

    // Her standalone lorebook as SillyTavern World Info too.
    expect(jsonFile(files, `lorebooks/Harbor_towns-${standaloneId.slice(0, 8)}.json`)).toMatchObject({
      name: "Harbor towns",
      entries: { "0": { uid: 0, key: ["Saltmere"], content: "Saltmere stands on stilts.", order: 7, position: 0 } },
    });

    // The chat as SillyTavern JSONL: a header line, then the greeting, her message and the reply.
    const chatName = names.find((name) => name.startsWith("chats/") && name.endsWith(".jsonl"))!;
    const lines = strFromU8(files[chatName]!).trim().split("\n").map((line) => JSON.parse(line));
    // Her first persona is her default: the chat names her by it, as the chat's own export does.
    expect(lines[0]).toMatchObject({ user_name: "Captain Mira", character_name: "Wren of the Harbor" });
    expect(lines.slice(1).map((line) => [line.is_user, line.mes])).toEqual(expect.arrayContaining([[true, "Where is the lighthouse keeper?"], [false, "Hello there."]]));
    expect(lines).toHaveLength(4);

    expect(jsonFile(files, "comments.json")).toEqual([expect.objectContaining({ id: comment.id, characterId: other, characterName: "Bystander", content: "Lovely bystander." })]);
    expect(jsonFile(files, "favorites.json")).toEqual([expect.objectContaining({ characterId: other, name: "Bystander" })]);
    expect(jsonFile(files, "follows.json")).toEqual({ following: [expect.objectContaining({ username: theo.username })] });
    expect(jsonFile(files, "personas.json")).toEqual([expect.objectContaining({ name: "Captain Mira", description: "Salt in her hair." })]);
    expect(jsonFile(files, "memories.json")).toEqual([expect.objectContaining({ scope: "chat", text: "The keeper left in spring.", characterName: "Wren of the Harbor" })]);
    // Whom she blocked, never who blocked her.
    expect(jsonFile(files, "blocks.json")).toEqual([expect.objectContaining({ username: blocked.username })]);
    expect(jsonFile(files, "shares.json")).toEqual([
      expect.objectContaining({ token: share.token, url: `/s/${share.token}`, conversationId: chat.id, title: "Chat with Wren of the Harbor", messageCount: 3 }),
    ]);
    const connections = jsonFile(files, "model-connections.json");
    expect(connections).toEqual([expect.objectContaining({ name: "My endpoint", kind: "openai", model: "echo" })]);
    expect(Object.keys(connections[0])).not.toEqual(expect.arrayContaining(["apiKey"]));
    expect(connections[0]).not.toHaveProperty("keyHint");
    expect(connections[0]).not.toHaveProperty("apiKeyEncrypted");

    // No secret, in any file, in any form.
    const token = mira.cookie.split("=")[1]!;
    const everything = Object.values(files).map((bytes) => strFromU8(bytes, true)).join("\n") + Object.values(unzipSync(files[charxName]!)).map((b) => strFromU8(b, true)).join("\n");
    const encrypted = await env.DB.prepare("SELECT api_key_encrypted AS k FROM model_connections WHERE user_id = ?").bind(mira.id).first<string>("k");
    for (const secret of [SECRET_KEY, SECRET_KEY.slice(-4) + '"', token, await sha256Hex(token), encrypted!, `subject-${mira.id}`]) {
      expect(everything.includes(secret), `the export carries ${secret.slice(0, 12)}…`).toBe(false);
    }
  }, 20_000);

  it("is one export a minute: a second one is 429 with Retry-After, then it works again", async () => {
    const mira = await signIn();
    await exportOf(mira);
    const res = await call("/api/profile/export", { user: mira });
    expect(await json(res, 429)).toMatchObject({ code: "rate_limited" });
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Someone else is not limited by her export.
    await exportOf(await signIn());
    await allowAgain(mira);
    await exportOf(mira);
  });

  it("lets exactly one of two exports started at once through", async () => {
    const mira = await signIn();
    const answers = await Promise.all([call("/api/profile/export", { user: mira }), call("/api/profile/export", { user: mira })]);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 429]);
    for (const res of answers) await res.body?.cancel();
  });

  it("answers visitors 401", async () => {
    expect((await call("/api/profile/export")).status).toBe(401);
  });
});

describe("an export racing a write", () => {
  it("is a whole, readable zip holding each thing either as it was or as it became", async () => {
    const mira = await signIn();
    const characterId = await insertCharacter({ name: "Racer", creatorId: mira.id, creator: "mira" });
    for (let i = 0; i < 5; i++) await startChat(mira, characterId);
    const res = await call("/api/profile/export", { user: mira });
    expect(res.status).toBe(200);
    // The archive is being written while she writes.
    const [bytes, comment, renamed] = await Promise.all([
      res.arrayBuffer(),
      call(`/api/characters/${characterId}/comments`, { method: "POST", user: mira, body: { content: "Written during the export" } }),
      call(`/api/characters/${characterId}`, { method: "PUT", user: mira, body: { name: "Racer Renamed" } }),
    ]);
    expect(comment.status).toBe(201);
    expect(renamed.status).toBe(200);
    const files = unzipSync(new Uint8Array(bytes));
    expect(Object.keys(files).filter((name) => name.startsWith("chats/"))).toHaveLength(5);
    expect(Object.keys(files)).toContain("sessions.json");
    const comments = jsonFile(files, "comments.json") as { content: string }[];
    expect(comments.length).toBeLessThanOrEqual(1);
    const charx = Object.keys(files).find((name) => name.endsWith(".charx"))!;
    expect(["Racer", "Racer Renamed"]).toContain(JSON.parse(strFromU8(unzipSync(files[charx]!)["card.json"]!)).data.name);
  });
});
