/**
 * Signed-in people favorite characters, discuss them in threads and vote on
 * comments in Chromium, as SPEC.md §2 ("Character card", "Comments section"),
 * §4 ("Favorite", "Vote", "Post comment") and §8 describe; visitors are sent
 * to sign in. Every test signs in as a new person (local sign-in).
 */
import { type APIRequestContext, expect, type Locator, type Page, test } from "@playwright/test";
import type { Character, CharacterListResponse } from "../schema/api.ts";
import { expectAccessible, expectSentToSignIn, signInWithApi, signInWithForm as signIn, toast, unique } from "./helpers.ts";

/**
 * Active characters with a plain name (easy to search for) and fewer than
 * 900 favorites (so +1 shows in the short count format), newest first.
 */
async function plainCharacters(request: APIRequestContext): Promise<Character[]> {
  const list = (await (await request.get("/api/characters?showNsfw=false&nsfw=false&limit=100&sort=new")).json()) as CharacterListResponse;
  return list.characters.filter((c) => /^[A-Za-z]+( [A-Za-z]+)*$/.test(c.name) && c.favoriteCount < 900) as Character[];
}

async function apiCharacter(page: Page, id: number): Promise<Character> {
  return (await (await page.request.get(`/api/characters/${id}`)).json()) as Character;
}

/**
 * Back to Home through the character page's link, waiting for Home: the
 * header's search box only filters the grid there (elsewhere it waits for
 * Enter), so typing before Home is up would be lost.
 */
async function backToHome(page: Page) {
  await page.getByRole("link", { name: /Back to Characters/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Browse AI roleplay characters" })).toBeVisible();
}

const commentsHeading = (page: Page) => page.getByRole("heading", { name: /^Comments \(\d+\)$/ });
/** The comment whose text is exactly `text`, looked for within `scope` (default: the page). */
const commentArticle = (page: Page, text: string, scope: Page | Locator = page) =>
  scope.getByRole("article").filter({ has: page.getByText(text, { exact: true }) });

test("favorite and unfavorite: the count and heart change on the card and the character page", async ({ page }) => {
  await signIn(page, "Faye");
  const character = (await plainCharacters(page.request))[0]!;
  const before = character.favoriteCount;
  const add = new RegExp(`^.+, add ${character.name} to favorites$`);
  const remove = new RegExp(`^.+, remove ${character.name} from favorites$`);

  // Home: find the card by searching its name, then favorite it there.
  await page.getByPlaceholder("Search characters...").fill(character.name);
  const card = page.getByRole("article").filter({ has: page.getByRole("link", { name: character.name, exact: true }) });
  await expect(card).toHaveCount(1);
  await expect(card.getByRole("button", { name: add })).toHaveText(String(before));
  await card.getByRole("button", { name: add }).click();
  await expect(card.getByRole("button", { name: remove })).toHaveAttribute("aria-pressed", "true");
  await expect(card.getByRole("button", { name: remove })).toHaveText(String(before + 1));
  await expect.poll(async () => (await apiCharacter(page, character.id)).favoriteCount).toBe(before + 1);

  // The character page knows: pressed, one more. Unfavorite there.
  await card.getByRole("link", { name: character.name }).click();
  await expect(page.getByRole("heading", { level: 1, name: character.name })).toBeVisible();
  await expect(page.getByRole("button", { name: remove })).toHaveText(String(before + 1));
  await page.getByRole("button", { name: remove }).click();
  await expect(page.getByRole("button", { name: add })).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByRole("button", { name: add })).toHaveText(String(before));
  await expect.poll(async () => (await apiCharacter(page, character.id)).favoriteCount).toBe(before);

  // Still so after a reload, and back on the card.
  await page.reload();
  await expect(page.getByRole("button", { name: add })).toHaveText(String(before));
  await backToHome(page);
  await page.getByPlaceholder("Search characters...").fill(character.name);
  await expect(card.getByRole("button", { name: add })).toHaveText(String(before));
});

test("signed-in Home shows favorited hearts from the list, with no favorite-status request per card", async ({ page }) => {
  await signInWithApi(page, "Hana");
  const newest = (await (await page.request.get("/api/characters?showNsfw=false&nsfw=false&limit=20&offset=0&sort=new")).json()) as CharacterListResponse;
  const [plain, liked, , alsoLiked] = newest.characters;
  for (const character of [liked!, alsoLiked!]) {
    expect((await page.request.post(`/api/characters/${character.id}/favorite`)).ok()).toBe(true);
  }
  const statusRequests: string[] = [];
  const listRequests: string[] = [];
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (request.method() === "GET" && /^\/api\/characters\/[^/]+\/favorite$/.test(pathname)) statusRequests.push(pathname);
    if (request.method() === "GET" && pathname === "/api/characters") listRequests.push(request.url());
  });
  const card = (character: { id: number }) => page.locator("article").filter({ has: page.locator(`a[href="/character/${character.id}"]`) });
  const heart = (character: { id: number }) => card(character).getByRole("button", { name: /^.+, (add .+ to|remove .+ from) favorites$/ });

  await page.goto("/");
  await expect(page.getByRole("button", { name: /^.+, (add .+ to|remove .+ from) favorites$/ })).toHaveCount(20);
  await page.getByRole("tab", { name: "New" }).click();
  await expect(heart(liked!)).toHaveAttribute("aria-pressed", "true");
  await expect(heart(liked!)).toHaveAccessibleName(new RegExp(`^.+, remove ${liked!.name} from favorites$`));
  await expect(heart(alsoLiked!)).toHaveAttribute("aria-pressed", "true");
  await expect(heart(plain!)).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByRole("button", { name: /^.+, remove .+ from favorites$/, pressed: true })).toHaveCount(2);
  expect(listRequests.length).toBeGreaterThanOrEqual(2);
  expect(statusRequests).toEqual([]);

  // The character page starts from the same status.
  await card(liked!).getByRole("link").first().click();
  await expect(page.getByRole("heading", { level: 1, name: liked!.name })).toBeVisible();
  await expect(page.getByRole("button", { name: `Remove ${liked!.name} from favorites` })).toHaveAttribute("aria-pressed", "true");
});

test("comment, reply, reply to the reply, vote up, down and off, delete the thread", async ({ page }) => {
  const me = await signIn(page, "Cora");
  const character = (await plainCharacters(page.request)).at(-1)!;
  await page.goto(`/character/${character.id}`);
  await expect(commentsHeading(page)).toBeVisible();
  const start = (await apiCharacter(page, character.id)).commentCount;
  await expect(commentsHeading(page)).toHaveText(`Comments (${start})`);

  // The comment count beside the favorites scrolls to the comments.
  await page.getByRole("link", { name: new RegExp(`^${start} comments?$`) }).click();
  await expect(page).toHaveURL(/#comments$/);
  await expect(commentsHeading(page)).toBeInViewport();

  // A top-level comment keeps its line break.
  const tag = unique();
  const first = `First thoughts ${tag}`;
  const post = page.getByRole("button", { name: "Post Comment" });
  await expect(post).toBeDisabled();
  await page.getByPlaceholder("Share your thoughts about this character...").fill("   \n ");
  await expect(post).toBeDisabled();
  await page.getByPlaceholder("Share your thoughts about this character...").fill(`${first}\nsecond line`);
  await post.click();
  await expect(toast(page, "Comment posted successfully")).toBeVisible();
  await expect(commentsHeading(page)).toHaveText(`Comments (${start + 1})`);
  await expect(page.getByPlaceholder("Share your thoughts about this character...")).toHaveValue("");
  const top = page.getByRole("article").filter({ hasText: first }).first();
  await expect(top.getByText(`${first}\nsecond line`)).toHaveCSS("white-space", "pre-wrap");
  await expect(top.getByText(me.username, { exact: true })).toBeVisible();
  await expect(top.getByText(me.username.replace(/^@/, "").slice(0, 2).toUpperCase(), { exact: true })).toBeVisible();
  await expect(top.locator("time")).toHaveText(/less than a minute ago|1 minute ago/);

  // A reply, indented under it.
  const reply = `A reply ${tag}`;
  await top.getByRole("button", { name: "Reply", exact: true }).click();
  const replyBox = page.getByPlaceholder("Write your reply...");
  await expect(replyBox).toBeFocused();
  await replyBox.fill(reply);
  await page.getByRole("button", { name: "Reply", exact: true }).and(page.locator("[type=submit]")).click();
  await expect(commentsHeading(page)).toHaveText(`Comments (${start + 2})`);
  await expect(page.getByPlaceholder("Write your reply...")).toHaveCount(0);
  const replies = page.getByRole("list", { name: `Replies to ${me.username}` }).first();
  const replyArticle = commentArticle(page, reply, replies);
  await expect(replyArticle).toBeVisible();

  // A reply to the reply opens in the same level; it can be hidden and shown again.
  const deeper = `Deeper ${tag}`;
  await replyArticle.getByRole("button", { name: "Reply", exact: true }).click();
  await page.getByPlaceholder("Write your reply...").fill(deeper);
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByPlaceholder("Write your reply...")).toHaveCount(0);
  await replyArticle.getByRole("button", { name: "Reply", exact: true }).click();
  await page.getByPlaceholder("Write your reply...").fill(deeper);
  await page.getByRole("button", { name: "Reply", exact: true }).and(page.locator("[type=submit]")).click();
  await expect(commentsHeading(page)).toHaveText(`Comments (${start + 3})`);
  const deeperArticle = commentArticle(page, deeper);
  await expect(deeperArticle).toBeVisible();
  await expect(deeperArticle.getByText(/replying to/)).toBeVisible();
  const replyItem = replies.getByRole("listitem").filter({ has: commentArticle(page, reply) }).first();
  await replyItem.getByRole("button", { name: "Hide replies" }).click();
  await expect(deeperArticle).toHaveCount(0);
  await replyItem.getByRole("button", { name: "Show 1 reply" }).click();
  await expect(deeperArticle).toBeVisible();
  await expect(page.getByRole("link", { name: `${start + 3} comments` })).toBeVisible();

  await expectAccessible(page);

  // Votes on the top comment: up (orange), down (blue), down again removes it.
  const up = top.getByRole("button", { name: `Upvote comment by ${me.username}` });
  const down = top.getByRole("button", { name: `Downvote comment by ${me.username}` });
  const votes = top.getByTestId("comment-votes").first();
  await expect(votes).toHaveText("0");
  await up.click();
  await expect(up).toHaveAttribute("aria-pressed", "true");
  await expect(votes).toHaveText("1");
  await expect(votes).toHaveClass(/text-orange-400/);
  await expect(up).toBeEnabled();
  await down.click();
  await expect(down).toHaveAttribute("aria-pressed", "true");
  await expect(up).toHaveAttribute("aria-pressed", "false");
  await expect(votes).toHaveText("-1");
  await expect(votes).toHaveClass(/text-blue-400/);
  await expect(down).toBeEnabled();
  await down.click();
  await expect(down).toHaveAttribute("aria-pressed", "false");
  await expect(votes).toHaveText("0");
  await expect(votes).toHaveClass(/text-muted-foreground/);

  // Deleting the top comment, after the browser's confirmation, removes the whole thread.
  let confirmation = "";
  page.once("dialog", (dialog) => {
    confirmation = dialog.message();
    void dialog.accept();
  });
  await top.getByRole("button", { name: "Delete" }).first().click();
  await expect(toast(page, "Comment deleted successfully")).toBeVisible();
  expect(confirmation).toBe("Are you sure you want to delete this comment?");
  await expect(commentsHeading(page)).toHaveText(`Comments (${start})`);
  await expect(page.getByText(first)).toHaveCount(0);
  await expect(page.getByText(deeper)).toHaveCount(0);
  await expect.poll(async () => (await apiCharacter(page, character.id)).commentCount).toBe(start);
  if (start === 0) await expect(page.getByText("No comments yet. Be the first to share your thoughts!")).toBeVisible();

  // Dismissing the confirmation keeps the comment.
  await page.getByPlaceholder("Share your thoughts about this character...").fill(`Keep me ${tag}`);
  await page.getByRole("button", { name: "Post Comment" }).click();
  await expect(commentsHeading(page)).toHaveText(`Comments (${start + 1})`);
  page.once("dialog", (dialog) => void dialog.dismiss());
  await commentArticle(page, `Keep me ${tag}`).getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText(`Keep me ${tag}`)).toBeVisible();
  await expect(commentsHeading(page)).toHaveText(`Comments (${start + 1})`);

  // The card on Home counts it too.
  await backToHome(page);
  await page.getByPlaceholder("Search characters...").fill(character.name);
  const card = page.getByRole("article").filter({ has: page.getByRole("link", { name: character.name, exact: true }) });
  await expect(card.getByText(`${start + 1} comment`)).toBeAttached();
});

test("only the author sees Delete; visitors read comments and are sent to sign in to act", async ({ browser, page }) => {
  // Someone else comments.
  const author = await browser.newContext();
  const authorPage = await author.newPage();
  const them = await signIn(authorPage, "Nell");
  const character = (await plainCharacters(authorPage.request))[1]!;
  const text = `Written by someone else ${unique()}`;
  const res = await authorPage.request.post(`/api/characters/${character.id}/comments`, { data: { content: text } });
  expect(res.status()).toBe(201);
  await author.close();

  // A visitor reads it, without Delete; voting, commenting and favoriting send them to sign in.
  await page.goto(`/character/${character.id}`);
  const theirs = commentArticle(page, text);
  await expect(theirs).toBeVisible();
  await expect(theirs.getByRole("button", { name: "Delete" })).toHaveCount(0);
  await expect(theirs.getByRole("button", { name: "Reply" })).toBeVisible();
  await expectSentToSignIn(
    page,
    () => theirs.getByRole("button", { name: `Upvote comment by ${them.username}` }).click(),
    "You need to log in to vote. Redirecting...",
  );

  await page.goto(`/character/${character.id}`);
  await page.getByPlaceholder("Share your thoughts about this character...").fill("Hello");
  await expectSentToSignIn(
    page,
    () => page.getByRole("button", { name: "Post Comment" }).click(),
    "You need to log in to comment. Redirecting...",
  );

  await page.goto(`/character/${character.id}`);
  await expectSentToSignIn(
    page,
    () => page.getByRole("button", { name: new RegExp(`^.+, add ${character.name} to favorites$`) }).click(),
    "You need to log in to favorite. Redirecting...",
  );

  // On Home's grid a visitor's heart goes straight to sign-in.
  await page.goto("/");
  await page.getByRole("button", { name: /^.+, add .+ to favorites$/ }).first().click();
  await expect(page).toHaveURL(/\/api\/login$/);

  // Another signed-in person sees no Delete on it either, but does on their own.
  const me = await signIn(page, "Otto");
  await page.goto(`/character/${character.id}`);
  await expect(commentArticle(page, text).getByRole("button", { name: "Delete" })).toHaveCount(0);
  await page.getByPlaceholder("Share your thoughts about this character...").fill(`Mine ${unique()}`);
  await page.getByRole("button", { name: "Post Comment" }).click();
  const mine = page.getByRole("article", { name: `Comment by ${me.username}` });
  await expect(mine.getByRole("button", { name: "Delete" })).toBeVisible();
});
