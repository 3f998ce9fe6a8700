import { describe, expect, it } from "vitest";
import type { Comment } from "../../../../schema/api.ts";
import { canSubmitComment, commentInitials, countComments, showRepliesLabel, voteTone } from "./comment-display.ts";

const comment = (id: number, replies: Comment[] = []): Comment => ({
  id,
  characterId: 1,
  userId: "u",
  content: "x",
  parentId: null,
  votes: 0,
  createdAt: "2025-01-01T00:00:00.000Z",
  username: "@u",
  profileImageUrl: null,
  replies,
});

describe("commentInitials", () => {
  it("is the first two letters of the username without its @, upper case", () => {
    expect(commentInitials("@mira_42")).toBe("MI");
    expect(commentInitials("zed")).toBe("ZE");
    expect(commentInitials("@élise")).toBe("ÉL");
  });

  it("skips underscores and copes with short or empty names", () => {
    expect(commentInitials("@_x_y")).toBe("XY");
    expect(commentInitials("@q")).toBe("Q");
    expect(commentInitials("@")).toBe("?");
    expect(commentInitials("")).toBe("?");
  });
});

describe("countComments", () => {
  it("counts replies at every depth", () => {
    expect(countComments([])).toBe(0);
    expect(countComments([comment(1), comment(2, [comment(3, [comment(4), comment(5)])])])).toBe(5);
  });
});

describe("canSubmitComment", () => {
  it("needs text after trimming", () => {
    expect(canSubmitComment("")).toBe(false);
    expect(canSubmitComment("  \n\t ")).toBe(false);
    expect(canSubmitComment(" hi ")).toBe(true);
  });
});

describe("voteTone", () => {
  it("is positive above zero, negative below, neutral at zero", () => {
    expect(voteTone(3)).toBe("positive");
    expect(voteTone(-1)).toBe("negative");
    expect(voteTone(0)).toBe("neutral");
  });
});

describe("showRepliesLabel", () => {
  it("says reply or replies", () => {
    expect(showRepliesLabel(1)).toBe("Show 1 reply");
    expect(showRepliesLabel(4)).toBe("Show 4 replies");
  });
});
