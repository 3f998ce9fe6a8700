import { describe, expect, it } from "vitest";
import type { CastMember, ConversationCharacter } from "../../../../schema/chat.ts";
import { castNames, castOf, FORMER_MEMBER_NAME, speakerOf, talkativenessText, unknownSpeakers } from "./cast.ts";

const character = (id: number, name: string): ConversationCharacter => ({
  id,
  name,
  avatarUrl: `/avatars/${id}.png`,
  creator: "mira",
  creatorUsername: "mira",
});
const member = (id: number, name: string, extra: Partial<CastMember> = {}): CastMember => ({
  ...character(id, name),
  muted: false,
  talkativeness: 0.5,
  assets: [],
  ...extra,
});

describe("speakerOf", () => {
  const ana = member(1, "Ana");
  const bo = member(2, "Bo");
  const none = new Map<number, ConversationCharacter>();

  it("is the member the reply names", () => {
    expect(speakerOf(2, [ana, bo], none, ana)).toEqual({ id: 2, name: "Bo", avatarUrl: "/avatars/2.png", member: true, expressions: [] });
  });

  it("a reply without a speaker is the first member's", () => {
    expect(speakerOf(undefined, [ana, bo], none, ana)).toMatchObject({ id: 1, name: "Ana", member: true, expressions: [] });
  });

  it("a speaker who left is still named when the page saw them, else 'Former member'", () => {
    const known = new Map([[3, character(3, "Cy")]]);
    expect(speakerOf(3, [ana], known, ana)).toEqual({ id: 3, name: "Cy", avatarUrl: "/avatars/3.png", member: false, expressions: [] });
    expect(speakerOf(4, [ana], known, ana)).toEqual({ id: 4, name: FORMER_MEMBER_NAME, avatarUrl: null, member: false, expressions: [] });
  });
});

describe("castNames", () => {
  it("names the cast in a sentence", () => {
    expect(castNames([])).toBe("");
    expect(castNames(["Ana"])).toBe("Ana");
    expect(castNames(["Ana", "Bo"])).toBe("Ana and Bo");
    expect(castNames(["Ana", "Bo", "Cy"])).toBe("Ana, Bo and Cy");
  });
});

describe("castOf", () => {
  it("is the conversation's cast, or its character alone for an answer without one", () => {
    const ana = member(1, "Ana");
    expect(castOf({ character: ana, characters: [ana, member(2, "Bo")] }).map((m) => m.name)).toEqual(["Ana", "Bo"]);
    expect(castOf({ character: character(1, "Ana") })).toEqual([{ ...character(1, "Ana"), muted: false, talkativeness: 0.5, assets: [] }]);
  });
});

describe("talkativenessText", () => {
  it("is a percentage", () => {
    expect(talkativenessText(0)).toBe("0%");
    expect(talkativenessText(0.5)).toBe("50%");
    expect(talkativenessText(1)).toBe("100%");
  });
});

describe("unknownSpeakers", () => {
  it("lists the speakers neither in the cast nor known, once each, in order", () => {
    const messages = [{ characterId: 1 }, {}, { characterId: 7 }, { characterId: 3 }, { characterId: 7 }, { characterId: 5 }];
    expect(unknownSpeakers(messages, [member(1, "Ana")], new Map([[3, character(3, "Cy")]]))).toEqual([7, 5]);
  });
});
