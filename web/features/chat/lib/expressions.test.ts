import { describe, expect, it } from "vitest";
import type { Speaker } from "./cast.ts";
import type { ChatItem } from "./chat-items.ts";
import { backgroundPicture, expressionPicture, STAGE_MAX_FIGURES, stageFigures } from "./expressions.ts";

const joy = { type: "emotion", name: "joy", url: "/objects/assets/a", ext: "png" };
const neutral = { type: "emotion", name: "neutral", url: "/objects/assets/b", ext: "png" };

describe("expressionPicture", () => {
  it("the reply's label, else neutral, else none", () => {
    expect(expressionPicture([joy, neutral], "joy")).toBe(joy);
    expect(expressionPicture([joy, neutral], null)).toBe(neutral);
    expect(expressionPicture([joy, neutral], "anger")).toBe(neutral);
    expect(expressionPicture([joy], undefined)).toBeNull();
    expect(expressionPicture([], "joy")).toBeNull();
  });
});

describe("backgroundPicture", () => {
  it("finds the named background only", () => {
    const harbor = { type: "background", name: "harbor", url: "/objects/assets/c", ext: "jpg" };
    expect(backgroundPicture([joy, harbor], "harbor")).toBe(harbor);
    expect(backgroundPicture([joy, harbor], "joy")).toBeNull();
    expect(backgroundPicture([harbor], null)).toBeNull();
  });
});

describe("stageFigures", () => {
  const sad = { type: "emotion", name: "sadness", url: "/objects/assets/s", ext: "png" };
  const speakers: Record<number, Speaker> = {
    1: { id: 1, name: "Ana", avatarUrl: null, member: true, expressions: [joy, neutral, sad] },
    2: { id: 2, name: "Bo", avatarUrl: null, member: true, expressions: [] },
    3: { id: 3, name: "Cy", avatarUrl: null, member: true, expressions: [neutral, joy] },
    4: { id: 4, name: "Di", avatarUrl: null, member: true, expressions: [neutral] },
    5: { id: 5, name: "Ed", avatarUrl: null, member: true, expressions: [neutral] },
  };
  const speakerOf = (id: number | undefined) => speakers[id ?? 1]!;
  let n = 0;
  const reply = (characterId: number, expression: string | null, extra: Partial<ChatItem> = {}): ChatItem => ({
    id: `m${++n}`,
    clientId: null,
    content: "…",
    isUser: false,
    createdAt: "",
    rating: null,
    alternatives: [],
    status: "saved",
    stopped: false,
    characterId,
    expression,
    ...extra,
  });
  const said = (figures: ReturnType<typeof stageFigures>) => figures.map((f) => [f.speaker.name, f.face.name]);

  it("each speaker with expressions once, with the face of their newest reply, the latest speaker last", () => {
    const messages = [reply(1, "joy"), reply(3, "joy"), reply(2, null), { ...reply(1, null), isUser: true }, reply(1, "sadness")];
    expect(said(stageFigures(messages, speakerOf))).toEqual([
      ["Cy", "joy"],
      ["Ana", "sadness"],
    ]);
  });

  it("a reply being written and a picture keep the faces before them; at most STAGE_MAX_FIGURES stand", () => {
    const messages = [reply(3, "joy"), reply(4, null), reply(5, null), reply(1, "joy"), reply(1, null, { status: "streaming" }), reply(1, null, { kind: "image" })];
    const figures = stageFigures(messages, speakerOf);
    expect(figures).toHaveLength(STAGE_MAX_FIGURES);
    expect(said(figures)).toEqual([
      ["Di", "neutral"],
      ["Ed", "neutral"],
      ["Ana", "joy"],
    ]);
  });

  it("nobody with expressions: an empty stage", () => {
    expect(stageFigures([reply(2, "joy")], speakerOf)).toEqual([]);
  });
});
