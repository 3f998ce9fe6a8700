/**
 * Issue 35 "Blocking" against every write path: the app's own route table
 * (`app.routes`) is walked, so a new route is noticed.
 *
 * 1. Every write route (POST, PUT, PATCH, DELETE under /api) is named in
 *    worker/routes-toward-people.ts, either as reaching a person
 *    (TOWARD_A_PERSON) or not (TOWARD_NO_ONE, with why), and those lists
 *    name no route that does not exist.
 * 2. Every route that reaches a person has a case below, run from both
 *    sides of a block: the blocked person gets a refusal that does not
 *    mention the block (a neutral 403, or the 404 of an unknown invitation
 *    link), the blocker a 403 that says they blocked the person; nothing is
 *    written; and once unblocked, the same act succeeds (so the case really
 *    drives the route).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Comment } from "../../schema/api.ts";
import type { Conversation, ConversationInvite } from "../../schema/chat.ts";
import app from "../app.ts";
import { TOWARD_A_PERSON, TOWARD_NO_ONE } from "../routes-toward-people.ts";
import { call, json } from "./creator-api.ts";
import { insertCharacter, signIn, type TestUser } from "./fixtures.ts";

const WRITES = ["POST", "PUT", "PATCH", "DELETE"];

function writeRoutes(): Set<string> {
  const routes = new Set<string>();
  for (const route of app.routes) {
    if (WRITES.includes(route.method) && route.path.startsWith("/api/")) routes.add(`${route.method} ${route.path}`);
  }
  return routes;
}

/** One act of `actor` toward `target`, set up afresh; `written` tells whether it left its mark. */
interface Act {
  name: string;
  run: (actor: TestUser, target: TestUser) => Promise<{ res: Response; written: () => Promise<boolean> }>;
  /** The answer that succeeds once nothing stands between them. */
  okStatus: number;
  /** What the blocked person is told: the same words whatever the reason, never "block". */
  neutral: { status: number; body: { error: string; code: string } };
}

const exists = async (sql: string, ...params: unknown[]) => (await env.DB.prepare(sql).bind(...params).first()) !== null;

const comment = async (user: TestUser, characterId: number, content: string, parentId?: number) =>
  json<Comment>(await call(`/api/characters/${characterId}/comments`, { method: "POST", user, body: { content, parentId } }), 201);

async function inviteTo(owner: TestUser): Promise<{ conversationId: string; token: string }> {
  const characterId = await insertCharacter({ name: "Salon" });
  const room = await json<Conversation>(await call("/api/conversations", { method: "POST", user: owner, body: { characterId } }), 201);
  const link = await json<ConversationInvite>(await call(`/api/conversations/${room.id}/invites`, { method: "POST", user: owner }), 201);
  return { conversationId: room.id, token: link.token };
}

/** The cases, by route (worker/routes-toward-people.ts TOWARD_A_PERSON). */
const CASES: Record<string, Act[]> = {
  "PUT /api/users/:username/follow": [
    {
      name: "follow",
      run: async (actor, target) => ({
        res: await call(`/api/users/${encodeURIComponent(target.username)}/follow`, { method: "PUT", user: actor }),
        written: () => exists("SELECT 1 FROM follows WHERE follower_id = ? AND followee_id = ?", actor.id, target.id),
      }),
      okStatus: 200,
      neutral: { status: 403, body: { error: "You can't follow this person.", code: "forbidden" } },
    },
  ],
  "POST /api/characters/:id/comments": [
    {
      name: "comment on their character",
      run: async (actor, target) => {
        const characterId = await insertCharacter({ name: "Their own", creatorId: target.id });
        return {
          res: await call(`/api/characters/${characterId}/comments`, { method: "POST", user: actor, body: { content: "Hello there" } }),
          written: () => exists("SELECT 1 FROM comments WHERE character_id = ? AND user_id = ?", characterId, actor.id),
        };
      },
      okStatus: 201,
      neutral: { status: 403, body: { error: "You can't comment on this character.", code: "forbidden" } },
    },
    {
      name: "reply to their comment on someone else's character",
      run: async (actor, target) => {
        const characterId = await insertCharacter({ name: "Neutral ground" });
        const parent = await comment(target, characterId, "A thought");
        return {
          res: await call(`/api/characters/${characterId}/comments`, {
            method: "POST",
            user: actor,
            body: { content: "A reply", parentId: parent.id },
          }),
          written: () => exists("SELECT 1 FROM comments WHERE parent_id = ? AND user_id = ?", parent.id, actor.id),
        };
      },
      okStatus: 201,
      neutral: { status: 403, body: { error: "You can't reply to this comment.", code: "forbidden" } },
    },
  ],
  "POST /api/characters/:id/fork": [
    {
      name: "fork their character",
      run: async (actor, target) => {
        const characterId = await insertCharacter({ name: "Their own", creatorId: target.id });
        return {
          res: await call(`/api/characters/${characterId}/fork`, { method: "POST", user: actor }),
          written: () => exists("SELECT 1 FROM characters WHERE forked_from_id = ? AND creator_id = ?", characterId, actor.id),
        };
      },
      okStatus: 201,
      neutral: { status: 403, body: { error: "You can't fork this character.", code: "forbidden" } },
    },
  ],
  "POST /api/comments/:id/vote": [
    {
      name: "vote on their comment",
      run: async (actor, target) => {
        const characterId = await insertCharacter({ name: "Neutral ground" });
        const theirs = await comment(target, characterId, "Vote on me");
        return {
          res: await call(`/api/comments/${theirs.id}/vote`, { method: "POST", user: actor, body: { value: 1 } }),
          written: () => exists("SELECT 1 FROM comment_votes WHERE comment_id = ? AND user_id = ?", theirs.id, actor.id),
        };
      },
      okStatus: 200,
      neutral: { status: 403, body: { error: "You can't vote on this comment.", code: "forbidden" } },
    },
  ],
  "POST /api/invites/:token": [
    {
      name: "join their room by a working link",
      run: async (actor, target) => {
        const { conversationId, token } = await inviteTo(target);
        return {
          res: await call(`/api/invites/${token}`, { method: "POST", user: actor }),
          written: () => exists("SELECT 1 FROM conversation_members WHERE conversation_id = ? AND user_id = ?", conversationId, actor.id),
        };
      },
      okStatus: 200,
      neutral: { status: 404, body: { error: "Invitation not found", code: "not_found" } },
    },
    {
      name: "read their link's preview",
      run: async (actor, target) => {
        const { token } = await inviteTo(target);
        return { res: await call(`/api/invites/${token}`, { user: actor }), written: async () => false };
      },
      okStatus: 200,
      neutral: { status: 404, body: { error: "Invitation not found", code: "not_found" } },
    },
  ],
};

describe("every write route is sorted by whether it reaches a person", () => {
  it("each write route of the app is in exactly one list of worker/routes-toward-people.ts, and the lists name only real routes", () => {
    const routes = writeRoutes();
    expect(routes.size).toBeGreaterThan(40);
    const unsorted = [...routes].filter((route) => !(route in TOWARD_A_PERSON) && !(route in TOWARD_NO_ONE));
    expect(unsorted, "add these to TOWARD_A_PERSON (with a case here) or TOWARD_NO_ONE (with why)").toEqual([]);
    const both = Object.keys(TOWARD_A_PERSON).filter((route) => route in TOWARD_NO_ONE);
    expect(both).toEqual([]);
    const stale = [...Object.keys(TOWARD_A_PERSON), ...Object.keys(TOWARD_NO_ONE)].filter((route) => !routes.has(route));
    expect(stale, "these routes no longer exist").toEqual([]);
  });

  it("every route that reaches a person has a case below", () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(TOWARD_A_PERSON).sort());
  });
});

describe.each(Object.entries(CASES))("%s across a block", (_, acts) => {
  it.each(acts.map((act) => [act.name, act] as const))("%s: refused either way, silently for the blocked person; allowed again after unblocking", async (_, act) => {
    const blocker = await signIn();
    const blocked = await signIn();
    expect((await call(`/api/users/${encodeURIComponent(blocked.username)}/block`, { method: "PUT", user: blocker })).status).toBe(204);

    const theirs = await act.run(blocked, blocker);
    const body = await theirs.res.json<{ error: string; code: string }>();
    expect({ status: theirs.res.status, body }).toEqual(act.neutral);
    expect(body.error).not.toMatch(/block/i);
    expect(await theirs.written()).toBe(false);

    const mine = await act.run(blocker, blocked);
    expect(mine.res.status).toBe(403);
    expect((await mine.res.json<{ error: string }>()).error).toContain(`You blocked ${blocked.username}`);
    expect(await mine.written()).toBe(false);

    expect((await call(`/api/users/${encodeURIComponent(blocked.username)}/block`, { method: "DELETE", user: blocker })).status).toBe(204);
    for (const [actor, target] of [[blocked, blocker], [blocker, blocked]] as const) {
      const again = await act.run(actor, target);
      expect(again.res.status, await again.res.clone().text()).toBe(act.okStatus);
      if (act.name !== "read their link's preview") expect(await again.written()).toBe(true);
    }
  });
});
