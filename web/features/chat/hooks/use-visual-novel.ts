/**
 * The chat's "Visual novel" switch (issue 37, DESIGN.md "Character
 * assets"): offered only when a character of the cast has expressions
 * (emotion assets); on or off is remembered in this browser
 * (localStorage `fabled:visual-novel`, lib/use-stored-flag.ts).
 */
import type { CastMember } from "../../../../schema/chat.ts";
import { useStoredFlag } from "../../../lib/use-stored-flag.ts";

/** Where the Visual novel switch is remembered in this browser. */
const VISUAL_NOVEL_KEY = "fabled:visual-novel";

/**
 * `visualNovel`: the switch as the person left it; `hasExpressions`: whether
 * this cast can show the stage at all (the switch is hidden otherwise, and the
 * stage shows only when both are true).
 */
export function useVisualNovel(cast: readonly CastMember[]): {
  visualNovel: boolean;
  setVisualNovel: (on: boolean) => void;
  hasExpressions: boolean;
} {
  const [visualNovel, setVisualNovel] = useStoredFlag(VISUAL_NOVEL_KEY);
  const hasExpressions = cast.some((member) => member.assets?.some((asset) => asset.type === "emotion"));
  return { visualNovel, setVisualNovel, hasExpressions };
}
