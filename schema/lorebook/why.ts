/**
 * Why a lorebook entry fired, as a sentence for people: the prompt
 * inspector ("Why this reply?") and the lorebook page's "Test" box say it
 * the same way. Input: an activated entry's `reason`, `key`, `secondaryKey`
 * and `decorator` (schema/lorebook/activation.ts ActivatedEntry; the
 * inspector's PromptLorebookEntry carries the same fields).
 */
import type { ActivatedEntry } from "./activation.ts";

type Why = Pick<ActivatedEntry, "reason" | "key" | "secondaryKey" | "decorator">;

/** E.g. `Key “harbor” matched`, `Sticky: still active from an earlier reply`, `Always on (@@activate)`. */
export function whyFired(entry: Why): string {
  const key = entry.key ? `“${entry.key}”` : null;
  switch (entry.reason) {
    case "key":
      return key ? `Key ${key} matched` : "A key matched";
    case "regex":
      return key ? `Regex ${entry.key} matched` : "A regex key matched";
    case "secondary":
      if (!key) return "Its keys and secondary keys matched";
      return entry.secondaryKey ? `Key ${key} with secondary key “${entry.secondaryKey}”` : `Key ${key} matched; its secondary keys allowed it`;
    case "recursion":
      return key ? `Key ${key} found in another entry (recursion)` : "Found in another entry (recursion)";
    case "constant":
      return entry.decorator ? `Always on (${entry.decorator})` : "Constant: always on";
    case "sticky":
      return entry.decorator ? `Kept after its first match (${entry.decorator})` : "Sticky: still active from an earlier reply";
  }
}
