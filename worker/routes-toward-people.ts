/**
 * Every write route of the API (`METHOD /api/path` as Hono names it in
 * `app.routes`, worker/app.ts), sorted by whether it reaches another person
 * — the question a block answers (issue 35 "Blocking", worker/lib/blocks.ts,
 * docs/decisions/0030-blocking.md).
 *
 * worker/test/blocking-routes.test.ts walks the app's routes: a write route
 * in neither list fails it, and each route in `TOWARD_A_PERSON` must have a
 * case there showing that a block, either way, refuses it. So a new route
 * that lets one person act on another cannot ship without its block check.
 */

/** Writes that reach another person, and whom: refused across a block, either way. */
export const TOWARD_A_PERSON: Record<string, string> = {
  "PUT /api/users/:username/follow": "the person followed",
  "POST /api/characters/:id/comments": "the character's creator, and with `parentId` the author of the comment replied to",
  "POST /api/comments/:id/vote": "the comment's author",
  "POST /api/characters/:id/fork": "the character's creator, whose page lists the fork and credits it",
  "POST /api/invites/:token": "the owner of the room the link leads to (its preview, GET, is refused alike)",
};

/** Writes that reach no other person, or that a block must never stop, and why. */
export const TOWARD_NO_ONE: Record<string, string> = {
  "POST /api/characters": "one's own new character",
  "PUT /api/characters/:id": "one's own character",
  "PATCH /api/characters/:id/toggle-active": "one's own character",
  "DELETE /api/characters/:id": "one's own character",
  "POST /api/characters/:id/favorite": "a bookmark of a public character; its creator is not told who",
  "POST /api/characters/import": "one's own new character",
  "POST /api/characters/:id/assets": "one's own character's expression or background",
  "DELETE /api/characters/:id/assets/:type/:name": "one's own character's expression or background",
  "PUT /api/characters/:id/neutral-expression": "one's own character's expression",
  "PUT /api/characters/:id/lorebooks": "one's own character and one's own lorebooks",
  "POST /api/lorebooks": "one's own lorebook",
  "POST /api/lorebooks/import": "one's own lorebook",
  "PUT /api/lorebooks/:id": "one's own lorebook",
  "DELETE /api/lorebooks/:id": "one's own lorebook",
  "POST /api/objects/upload": "one's own upload",
  "PUT /api/objects/upload/:key{.+}": "one's own upload",
  "POST /api/images/avatars": "one's own drawn avatar (an upload of theirs)",
  "PUT /api/character-avatars": "one's own upload",
  "DELETE /api/comments/:id": "one's own comment; taking words back is always allowed",
  "POST /api/login/dev": "signing in",
  "POST /api/logout": "signing out",
  "PUT /api/profile": "one's own profile",
  "PUT /api/profile/hidden-tags": "one's own filter",
  "PUT /api/profile/content": "one's own settings",
  "DELETE /api/profile": "deleting one's own account: leaving is never refused",
  "DELETE /api/profile/sessions": "signing one's own other devices out",
  "DELETE /api/profile/sessions/:id": "signing one of one's own devices out",
  "POST /api/personas": "one's own persona",
  "PUT /api/personas/:id": "one's own persona",
  "DELETE /api/personas/:id": "one's own persona",
  "POST /api/model-connections": "one's own model connection",
  "POST /api/model-connections/test": "one's own model connection",
  "PUT /api/model-connections/:id": "one's own model connection",
  "DELETE /api/model-connections/:id": "one's own model connection",
  "POST /api/reports": "reaches the operator; a blocked person may still report what harms them",
  "POST /api/reports/review": "asks the operator to review one's own refusal",
  "POST /api/conversations": "a chat with a character; its creator is not in it",
  "POST /api/conversations/new": "a chat with a character; its creator is not in it",
  "POST /api/conversations/import": "one's own chat",
  "PATCH /api/conversations/:id": "the owner's own chat",
  "DELETE /api/conversations/:id": "the owner's own chat",
  "POST /api/conversations/:id/characters": "the cast of the owner's own chat",
  "PATCH /api/conversations/:id/characters/:characterId": "the cast of the owner's own chat",
  "DELETE /api/conversations/:id/characters/:characterId": "the cast of the owner's own chat",
  "POST /api/conversations/:id/invites": "a link, not a person: whoever uses it meets the check of POST /api/invites/:token",
  "DELETE /api/conversations/:id/invites/:token": "revoking one's own link",
  "POST /api/conversations/:id/shares": "a snapshot of one's own chat behind a public link; nobody is told of it",
  "DELETE /api/conversations/:id/shares/:token": "revoking one's own share link",
  "POST /api/shares/:token/continue": "one's own new chat from a public snapshot; its sharer is not told (as reading a public character)",
  "DELETE /api/conversations/:id/members/:userId": "removing someone or leaving: a block must never stop it",
  "POST /api/conversations/:id/messages/:messageId/rating": "a thumb on a character's reply in a chat one is in",
  "POST /api/conversations/:id/branch": "a private copy of one's own",
  "PUT /api/conversations/:id/persona": "one's own persona in a chat",
  "POST /api/conversations/:id/memories": "a pinned memory of the owner's own chat",
  "PATCH /api/conversations/:id/memories/:memoryId": "a pinned memory of the owner's own chat",
  "DELETE /api/conversations/:id/memories/:memoryId": "a pinned memory of the owner's own chat",
  "POST /api/transcriptions": "one's own voice to text",
  "DELETE /api/users/:username/follow": "stopping a follow: always allowed",
  "PUT /api/users/:username/block": "blocking itself",
  "DELETE /api/users/:username/block": "unblocking",
  "POST /api/notifications/read": "marking one's own notifications read",
  "PUT /api/profile/notifications": "one's own notification settings",
  "POST /api/push/subscriptions": "one's own device subscribing to pushes",
  "DELETE /api/push/subscriptions": "one's own device unsubscribing (another's endpoint is left alone)",
  "POST /api/enforcement/suspensions/:userId": "the operator's enforcement of what D1 already says",
  "POST /api/enforcement/removals/:conversationId": "the operator's enforcement of what D1 already says",
};
