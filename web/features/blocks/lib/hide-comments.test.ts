import { describe, expect, it } from "vitest";
import type { Comment } from "../../../../schema/api.ts";
import { withoutCommentsBy } from "./hide-comments.ts";

let next = 1;
const comment = (username: string, replies: Comment[] = []): Comment => ({
  id: next++,
  characterId: 1,
  userId: username,
  content: `by ${username}`,
  parentId: null,
  votes: 0,
  createdAt: "2026-01-01T00:00:00.000Z",
  username,
  profileImageUrl: null,
  replies,
});

describe("withoutCommentsBy", () => {
  it("drops the person's comments at any depth with the replies beneath them, matching any spelling of the name", () => {
    const list = [comment("@ana", [comment("@pest", [comment("@bo")]), comment("@bo")]), comment("@Pest", [comment("@ana")]), comment("@cy")];
    const shown = withoutCommentsBy(list, "pest");
    const names = (comments: Comment[]): string[] => comments.flatMap((c) => [c.username, ...names(c.replies)]);
    expect(names(shown)).toEqual(["@ana", "@bo", "@cy"]);
    expect(names(list)).toHaveLength(7);
  });

  it("returns the same list when nobody in it is blocked", () => {
    const list = [comment("@ana", [comment("@bo")])];
    expect(withoutCommentsBy(list, "@pest")).toBe(list);
  });
});
