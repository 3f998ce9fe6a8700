/**
 * The designed stand-in for a missing or broken avatar: a two-stop gradient
 * whose hue is derived from the character (stable across renders and pages)
 * and the name's initial.
 */
import { fnv1a } from "../../../../schema/seeded-random.ts";

/**
 * CSS `background-image` for the character's fallback. Lightness stays low
 * (≤ 36 %) so the white initial keeps at least 3:1 contrast on every hue.
 */
export function avatarGradient(id: number | string, name: string): string {
  const hue = fnv1a(`${id}:${name}`) % 360;
  const second = (hue + 45) % 360;
  return `linear-gradient(135deg, hsl(${hue} 65% 36%), hsl(${second} 70% 20%))`;
}

/** First letter of the name, upper case; "?" when the name has none. */
export function avatarInitial(name: string): string {
  const letter = name.trim().match(/[\p{L}\p{N}]/u)?.[0];
  return letter ? letter.toLocaleUpperCase() : "?";
}
