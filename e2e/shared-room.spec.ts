/**
 * Shared rooms in Chromium (DESIGN.md "Shared rooms", issue 23), with two
 * people in two browser contexts: the owner makes an invitation link from
 * the chat menu; the second person opens it as a visitor ("Sign in to
 * join"), signs in, comes back and joins; both see who is here, each
 * other's messages under their names, one character reply seen by both,
 * and "… is typing" while the other types. A revoked link says it is not
 * valid any more. A member can send while a reply is being written (it is
 * answered after it). A member removed while their tab is open is told at once
 * (no reconnecting) with a way back to My Chats, where a room they joined
 * can only be left (Rename and Delete are the owner's); the link they
 * joined by no longer lets them back, while one who left comes back by
 * theirs. Joining, a member picks their persona or none, told that the
 * owner's model receives it (issue 42). The offline model answers.
 */
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import type { Character } from "../schema/api.ts";
import type { Conversation } from "../schema/chat.ts";
import { expectAccessible, expectChatJoined, followChatSockets, letters, signInWithApi as signIn } from "./helpers.ts";

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
/** Where the screenshots go (looked at by people, not compared). */
const SHOTS = "test-results/shared-room";

const capitalized = () => {
  const word = letters();
  return word[0]!.toUpperCase() + word.slice(1);
};

async function createCharacter(request: APIRequestContext): Promise<Character> {
  const name = capitalized();
  const res = await request.post("/api/characters", {
    data: {
      name,
      description: `${name}, the game master of a shared room in the browser test.`,
      personality: "Warm, curious, fond of riddles.",
      scenario: "A tavern where friends gather for a story.",
      greeting: `*${name} deals the cards.* "Welcome, travellers."`,
      tags: [],
      isNsfw: false,
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as Character;
}

const log = (page: Page) => page.getByRole("log");
const messagesOf = (page: Page, name: string) => log(page).getByRole("article", { name, exact: true });
const composer = (page: Page) => page.getByRole("textbox", { name: /^Message / });

async function openMenuItem(page: Page, item: string): Promise<void> {
  await page.getByRole("button", { name: "Conversation options" }).click();
  await page.getByRole("menuitem", { name: item, exact: true }).click();
}

test("two people play in one room: invite, join, presence, typing, names and one reply seen by both", async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  const ownerName = capitalized();
  const guestName = capitalized();
  await signIn(page, ownerName);
  const character = await createCharacter(page.request);
  const created = await page.request.post("/api/conversations", { data: { characterId: character.id } });
  expect(created.status()).toBe(201);
  const conversation = (await created.json()) as Conversation;

  followChatSockets(page);
  await page.goto(`/chat/${conversation.id}`);
  await expectChatJoined(page);

  // The owner makes a link.
  await openMenuItem(page, "Invite people");
  const dialog = page.getByRole("dialog", { name: "Invite people" });
  const linkBox = dialog.getByRole("textbox", { name: "Invitation link" });
  await expect(linkBox).toHaveValue(new RegExp(`^${baseURL}/join/[A-Za-z0-9_-]+$`));
  await expect(dialog.getByText(/^Works until /)).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Revoke link" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/invite-dialog-1280.png` });
  const link = await linkBox.inputValue();
  await dialog.getByRole("button", { name: "Done" }).click();

  // The second person opens it as a visitor: the room, its cast and owner, and "Sign in to join".
  const guestContext = await browser.newContext({ baseURL });
  const guest = await guestContext.newPage();
  await guest.goto(link);
  await expect(guest.getByRole("heading", { name: `Chat with ${character.name}` })).toBeVisible();
  await expect(guest.getByText(character.name, { exact: true })).toBeVisible();
  await expect(guest.getByText(ownerName, { exact: true })).toBeVisible();
  const signInLink = guest.getByRole("link", { name: "Sign in to join" });
  await expect(signInLink).toHaveAttribute("href", `/api/login?returnTo=${encodeURIComponent(new URL(link).pathname)}`);
  await expectAccessible(guest);
  await guest.screenshot({ path: `${SHOTS}/join-visitor-1280.png`, fullPage: true });
  await guest.setViewportSize({ width: 375, height: 800 });
  await guest.screenshot({ path: `${SHOTS}/join-visitor-375.png`, fullPage: true });

  // Signed in, they pick who they play (their default persona, or none: the owner's model is sent it) and join.
  await signIn(guest, guestName);
  const personaName = `Captain ${capitalized()}`;
  const persona = await guest.request.post("/api/personas", { data: { name: personaName, description: "A retired pirate with one eye.", isDefault: true } });
  expect(persona.status()).toBe(201);
  followChatSockets(guest);
  await guest.reload();
  const playAs = guest.getByRole("combobox", { name: "Play as" });
  await expect(playAs).toHaveValue(((await persona.json()) as { id: string }).id);
  await expect(guest.getByText(`${ownerName}'s chosen model — their own, if they use one — receives your persona's name and description.`)).toBeVisible();
  await expectAccessible(guest);
  await guest.setViewportSize({ width: 1280, height: 900 });
  await guest.screenshot({ path: `${SHOTS}/join-signed-in-1280.png`, fullPage: true });
  await guest.setViewportSize({ width: 375, height: 800 });
  await guest.screenshot({ path: `${SHOTS}/join-signed-in-375.png`, fullPage: true });
  await playAs.selectOption({ label: `No persona: just your name (${guestName})` });
  await guest.getByRole("button", { name: "Join chat" }).click();
  await expect(guest).toHaveURL(new RegExp(`/chat/${UUID}$`));
  await expect(guest).toHaveURL(new RegExp(`/chat/${conversation.id}$`));
  await expectChatJoined(guest);

  // Both see who is here.
  await expect(page.getByTestId("chat-presence")).toContainText(guestName);
  await expect(guest.getByTestId("chat-presence")).toContainText(ownerName);

  // The guest types: the owner sees it.
  await composer(guest).fill("Hello from the other side");
  await expect(page.getByText(`${guestName} is typing…`)).toBeVisible();

  // The guest sends: the owner sees the message under the guest's name, and one reply reaches both.
  await guest.getByRole("button", { name: "Send message" }).click();
  await expect(messagesOf(page, guestName)).toContainText("Hello from the other side");
  await expect(messagesOf(guest, "You")).toContainText("Hello from the other side");
  await expect(messagesOf(page, character.name)).toHaveCount(2);
  await expect(messagesOf(guest, character.name)).toHaveCount(2);
  // The reply is stored once Regenerate shows under it (on both pages): then its text is final.
  await expect(guest.getByRole("button", { name: "Regenerate" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Regenerate" })).toBeVisible();
  const reply = (await messagesOf(guest, character.name).nth(1).locator("[data-message-text]").textContent())!.trim();
  await expect(messagesOf(page, character.name).nth(1).locator("[data-message-text]")).toHaveText(reply);
  await expect(page.getByText(`${guestName} is typing…`)).toBeHidden();

  // The owner answers: the guest sees it under the owner's name.
  await composer(page).fill("Welcome aboard");
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(messagesOf(guest, ownerName)).toContainText("Welcome aboard");
  await guest.screenshot({ path: `${SHOTS}/room-guest-375.png` });
  await page.screenshot({ path: `${SHOTS}/room-owner-1280.png` });

  // A member's menu has no owner-only items; the People panel lists both with their roles.
  await guest.getByRole("button", { name: "Conversation options" }).click();
  await expect(guest.getByRole("menuitem", { name: "People", exact: true })).toBeVisible();
  await expect(guest.getByRole("menuitem", { name: "Invite people" })).toHaveCount(0);
  await expect(guest.getByRole("menuitem", { name: "Memory" })).toHaveCount(0);
  await guest.keyboard.press("Escape");
  // The member's own persona in the room: none, as joined; the picker says where a persona would go.
  await guest.getByRole("button", { name: "Conversation options" }).click();
  // The item's name ends with the persona in use ("Persona None").
  await guest.getByRole("menuitem", { name: /^Persona/ }).click();
  const picker = guest.getByRole("dialog", { name: "Persona" });
  await expect(picker.getByRole("radio", { name: /^No persona/ })).toBeChecked();
  await expect(picker.getByRole("radio", { name: new RegExp(`^${personaName}`) })).not.toBeChecked();
  await expect(picker).toContainText(`${ownerName}'s chosen model — their own, if they use one — receives your persona's name and description.`);
  await guest.screenshot({ path: `${SHOTS}/persona-member-375.png` });
  await guest.keyboard.press("Escape");
  await openMenuItem(page, "People");
  const people = page.getByRole("dialog", { name: "People" });
  await expect(people.getByRole("listitem").filter({ hasText: ownerName })).toContainText("Owner");
  await expect(people.getByRole("listitem").filter({ hasText: guestName })).toContainText("Member");
  await expect(people.getByRole("button", { name: `Remove ${guestName}` })).toBeVisible();
  await expectAccessible(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: `${SHOTS}/people-owner-375.png` });

  // The member leaves (after a confirmation) and lands in My Chats; the owner's panel then lists the owner alone.
  await openMenuItem(guest, "People");
  await guest.getByRole("dialog", { name: "People" }).getByRole("button", { name: "Leave chat" }).click();
  const leaving = guest.getByRole("alertdialog", { name: "Leave this chat?" });
  await expect(leaving).toContainText("You can come back by any of its invitation links that still works.");
  await leaving.getByRole("button", { name: "Leave chat" }).click();
  await expect(guest).toHaveURL(/\/chats$/);
  await expect(people.getByRole("listitem")).toHaveCount(1);
  await guestContext.close();
});

test("a revoked invitation link says it is not valid any more", async ({ page, browser, baseURL }) => {
  await signIn(page, capitalized());
  const character = await createCharacter(page.request);
  const created = await page.request.post("/api/conversations", { data: { characterId: character.id } });
  const conversation = (await created.json()) as Conversation;
  followChatSockets(page);
  await page.goto(`/chat/${conversation.id}`);
  await expectChatJoined(page);
  await openMenuItem(page, "Invite people");
  const dialog = page.getByRole("dialog", { name: "Invite people" });
  const linkBox = dialog.getByRole("textbox", { name: "Invitation link" });
  await expect(linkBox).toHaveValue(/\/join\//);
  const link = await linkBox.inputValue();
  await dialog.getByRole("button", { name: "Revoke link" }).click();
  await expect(dialog.getByText(/The link is revoked/)).toBeVisible();

  const visitorContext = await browser.newContext({ baseURL });
  const visitor = await visitorContext.newPage();
  await visitor.goto(link);
  await expect(visitor.getByRole("heading", { name: "This invitation link is not valid any more" })).toBeVisible();
  await expectAccessible(visitor);
  await visitorContext.close();
});

test("a member sends while a reply is written; removed, their tab says so at once with a way back to My Chats; a member leaves a room from My Chats", async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  const ownerName = capitalized();
  const guestName = capitalized();
  await signIn(page, ownerName);
  const character = await createCharacter(page.request);
  const room = async (title: string) => {
    const res = await page.request.post("/api/conversations", { data: { characterId: character.id } });
    expect(res.status()).toBe(201);
    const { id } = (await res.json()) as Conversation;
    expect((await page.request.patch(`/api/conversations/${id}`, { data: { title } })).status()).toBe(200);
    const invite = await page.request.post(`/api/conversations/${id}/invites`);
    expect(invite.status()).toBe(201);
    return { id, token: ((await invite.json()) as { token: string }).token };
  };
  const removedFrom = await room(`Removal ${letters()}`);
  const leftTitle = `Leaving ${letters()}`;
  const left = await room(leftTitle);

  const guestContext = await browser.newContext({ baseURL });
  const guest = await guestContext.newPage();
  const guestUser = await signIn(guest, guestName);
  for (const { token } of [removedFrom, left]) expect((await guest.request.post(`/api/invites/${token}`)).status()).toBe(200);

  // The owner removes the member while their tab is open: one chat socket, closed for good, and the tab says so.
  // (The bell's /ws/notifications socket is the person's, not the chat's: it stays.)
  const sockets: string[] = [];
  guest.on("websocket", (ws) => {
    if (new URL(ws.url()).pathname === "/ws") sockets.push(ws.url());
  });
  followChatSockets(guest);
  await guest.goto(`/chat/${removedFrom.id}`);
  await expectChatJoined(guest);

  // In a room of several people the input is not held while a reply is written: a message sent then is answered after it.
  await composer(guest).fill("First question");
  await guest.getByRole("button", { name: "Send message" }).click();
  // The first reply has begun (its bubble shows) before the second message goes: sent earlier,
  // the second message would land above it and the last two messages would both be replies.
  await expect(messagesOf(guest, character.name)).toHaveCount(2);
  await composer(guest).fill("And a second one");
  await expect(guest.getByRole("button", { name: "Send message" })).toBeEnabled();
  await guest.getByRole("button", { name: "Send message" }).click();
  await expect(messagesOf(guest, "You")).toHaveCount(2);
  await expect(messagesOf(guest, character.name)).toHaveCount(3);
  await expect(guest.getByRole("button", { name: "Regenerate" })).toBeVisible();
  expect((await page.request.delete(`/api/conversations/${removedFrom.id}/members/${guestUser.id}`)).status()).toBe(204);
  const notice = guest.getByRole("status").filter({ hasText: "You are no longer in this chat." });
  await expect(notice).toBeVisible();
  await expect(guest.getByText("Connection lost. Reconnecting…")).toHaveCount(0);
  // Nobody is "here" for them any more.
  await expect(guest.getByTestId("chat-presence")).toHaveCount(0);
  expect(sockets).toHaveLength(1);
  // Read-only at once: nothing to type, send or ask for (issue 41).
  await expect(composer(guest)).toHaveCount(0);
  await expect(guest.getByRole("button", { name: "Send message" })).toHaveCount(0);
  await expect(guest.getByRole("button", { name: "Regenerate" })).toHaveCount(0);
  await expectAccessible(guest);
  await guest.screenshot({ path: `${SHOTS}/removed-1280.png` });
  await guest.setViewportSize({ width: 375, height: 800 });
  await guest.screenshot({ path: `${SHOTS}/removed-375.png` });
  await notice.getByRole("link", { name: "Back to My Chats" }).click();
  await expect(guest).toHaveURL(/\/chats$/);
  expect(sockets).toHaveLength(1);

  // In My Chats the member can only leave the room they joined; the owner keeps Rename and Delete.
  const guestRow = guest.getByRole("listitem").filter({ hasText: leftTitle });
  await expect(guestRow.getByRole("button", { name: `Leave ${leftTitle}` })).toBeVisible();
  await expect(guestRow.getByRole("button", { name: `Rename ${leftTitle}` })).toHaveCount(0);
  await expect(guestRow.getByRole("button", { name: `Delete ${leftTitle}` })).toHaveCount(0);
  await expect(guest.getByRole("listitem").filter({ hasText: "Removal" })).toHaveCount(0);
  await expectAccessible(guest);
  await guest.screenshot({ path: `${SHOTS}/my-chats-member-375.png` });
  await page.goto("/chats");
  const ownerRow = page.getByRole("listitem").filter({ hasText: leftTitle });
  await expect(ownerRow.getByRole("button", { name: `Rename ${leftTitle}` })).toBeVisible();
  await expect(ownerRow.getByRole("button", { name: `Delete ${leftTitle}` })).toBeVisible();
  await expect(ownerRow.getByRole("button", { name: `Leave ${leftTitle}` })).toHaveCount(0);

  await guestRow.getByRole("button", { name: `Leave ${leftTitle}` }).click();
  await guest.getByRole("alertdialog", { name: "Leave this chat?" }).getByRole("button", { name: "Leave chat" }).click();
  await expect(guest.getByText("You left the chat", { exact: true })).toBeVisible();
  await expect(guestRow).toHaveCount(0);
  expect((await guest.request.get(`/api/conversations/${left.id}`)).status()).toBe(404);
  const members = ((await (await page.request.get(`/api/conversations/${left.id}`)).json()) as Conversation).members;
  expect(members.map((m) => m.userId)).toEqual([members[0]!.userId]);

  // The link the removed member joined by no longer lets them back; the one they left by still does.
  await guest.goto(`/join/${removedFrom.token}`);
  await guest.getByRole("button", { name: "Join chat" }).click();
  await expect(guest.getByText("You were removed from this chat. Only a new invitation link from its owner lets you back in.", { exact: true })).toBeVisible();
  await expect(guest).toHaveURL(new RegExp(`/join/${removedFrom.token}$`));
  await guest.screenshot({ path: `${SHOTS}/rejoin-refused-375.png` });
  await guest.goto(`/join/${left.token}`);
  await guest.getByRole("button", { name: "Join chat" }).click();
  await expect(guest).toHaveURL(new RegExp(`/chat/${left.id}$`));
  await guestContext.close();
});
