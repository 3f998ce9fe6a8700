/**
 * The expression picture beside a reply (DESIGN.md "Character assets"): the
 * speaker's `emotion` asset named by the reply's `expression`; for a reply
 * without one (a greeting, a reply from before the character had pictures)
 * its neutral picture, else none. A speaker without expressions: none, so
 * its replies look as they always did.
 */
import type { CharacterAsset } from "../../../../schema/api.ts";
import type { Speaker } from "./cast.ts";
import type { ChatItem } from "./chat-items.ts";

export function expressionPicture(expressions: readonly CharacterAsset[], expression: string | null | undefined): CharacterAsset | null {
  if (expressions.length === 0) return null;
  return (
    (expression ? expressions.find((asset) => asset.name === expression) : undefined) ??
    expressions.find((asset) => asset.name.toLowerCase() === "neutral") ??
    null
  );
}

/** The chat's background picture: the first character's `background` asset named `name`; null for none. */
export function backgroundPicture(assets: readonly CharacterAsset[] | undefined, name: string | null | undefined): CharacterAsset | null {
  if (!name) return null;
  return assets?.find((asset) => asset.type === "background" && asset.name === name) ?? null;
}

/** One character on the visual-novel stage: who, and the face of their newest reply. */
export interface StageFigure {
  speaker: Speaker;
  face: CharacterAsset;
  /** The id of the reply that face belongs to. */
  messageId: string;
}

/** At most this many characters stand on the stage at once. */
export const STAGE_MAX_FIGURES = 3;

/**
 * The visual-novel stage of a chat (issue 37): the characters who spoke most
 * recently and have expressions, each with the face of their own newest
 * reply (a reply being written shows the face of the one before it until it
 * is labelled), at most STAGE_MAX_FIGURES, the latest speaker last (in
 * front). Empty when no speaker has expressions.
 */
export function stageFigures(messages: readonly ChatItem[], speakerOf: (characterId: number | undefined) => Speaker): StageFigure[] {
  const figures: StageFigure[] = [];
  const seen = new Set<number | null>();
  for (let i = messages.length - 1; i >= 0 && figures.length < STAGE_MAX_FIGURES; i--) {
    const item = messages[i]!;
    if (item.isUser || item.kind === "image" || item.status === "streaming") continue;
    const speaker = speakerOf(item.characterId);
    if (seen.has(speaker.id)) continue;
    seen.add(speaker.id);
    const face = expressionPicture(speaker.expressions, item.expression);
    if (face) figures.unshift({ speaker, face, messageId: item.id });
  }
  return figures;
}
