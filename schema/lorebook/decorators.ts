/**
 * Card V3 `@@` decorators in an entry's content (kwaroran/character-card-spec-v3
 * SPEC_V3.md "Decorators", plus RisuAI's `@@match_full_word`, `@@probability`):
 * read once per book version (entries.ts) and left out of the prompt.
 */

/** Decorators this engine reads (SPEC_V3.md "Decorators", plus RisuAI's `@@match_full_word`, `@@probability`). */
const KNOWN_DECORATORS = new Set([
  "activate",
  "dont_activate",
  "depth",
  "role",
  "position",
  "scan_depth",
  "activate_only_after",
  "activate_only_every",
  "keep_activate_after_match",
  "dont_activate_after_match",
  "is_greeting",
  "additional_keys",
  "exclude_keys",
  "match_full_word",
  "probability",
]);

export interface Decorator {
  name: string;
  /** Comma-separated values, trimmed; [] for a decorator without a value. */
  values: string[];
}

/**
 * Splits an entry's content into its leading `@@name value` lines and the
 * rest. A `@@@name` line is a fallback, read only when the line before it was
 * a decorator this engine does not know (SPEC_V3.md "fallback decorators").
 * Every leading decorator line, known or not, is left out of the content.
 */
export function parseDecorators(content: string): { decorators: Decorator[]; content: string } {
  if (!content.startsWith("@@")) return { decorators: [], content };
  const lines = content.split("\n");
  const decorators: Decorator[] = [];
  let previousUnknown = false;
  let i = 0;
  for (; i < lines.length && lines[i]!.startsWith("@@"); i++) {
    const line = lines[i]!;
    const fallback = line.startsWith("@@@");
    if (fallback && !previousUnknown) continue;
    const body = line.slice(fallback ? 3 : 2).trim();
    const space = body.search(/\s/);
    const name = (space < 0 ? body : body.slice(0, space)).toLowerCase();
    const value = space < 0 ? "" : body.slice(space + 1).trim();
    if (KNOWN_DECORATORS.has(name)) {
      decorators.push({ name, values: value === "" ? [] : value.split(",").map((v) => v.trim()).filter(Boolean) });
      previousUnknown = false;
    } else {
      previousUnknown = true;
    }
  }
  return { decorators, content: lines.slice(i).join("\n") };
}

