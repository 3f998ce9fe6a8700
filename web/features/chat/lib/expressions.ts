/**
 * The expression picture beside a reply (DESIGN.md "Character assets"): the
 * speaker's `emotion` asset named by the reply's `expression`; for a reply
 * without one (a greeting, a reply from before the character had pictures)
 * its neutral picture, else none. A speaker without expressions: none, so
 * its replies look as they always did.
 */
import type { CharacterAsset } from "../../../../schema/api.ts";

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
