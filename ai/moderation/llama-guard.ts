/**
 * The `workers-ai` moderator: Llama Guard 3 (`@cf/meta/llama-guard-3-8b`,
 * or `MODERATION_MODEL`) through the `AI` binding; production. Its answer
 * is read by `parseLlamaGuard` into the hazard categories of moderator.ts.
 * Failures throw ModerationError (provider `workers-ai`).
 */
import { z } from "zod";
import { type AiRunner, runWorkersAI } from "../endpoints.ts";
import {
  HAZARD_CATEGORIES,
  type HazardCategory,
  inOrder,
  isHazardCategory,
  ModerationError,
  type ModerationInput,
  type ModerationOptions,
  type ModerationVerdict,
  type Moderator,
  verdictOf,
} from "./moderator.ts";

export type { AiRunner } from "../endpoints.ts";

/** The Workers AI model the `workers-ai` provider runs unless `MODERATION_MODEL` names another. */
export const LLAMA_GUARD_MODEL = "@cf/meta/llama-guard-3-8b";

/** Llama Guard's reading of a conversation, before the NSFW allowance. */
export interface LlamaGuardResult {
  safe: boolean;
  categories: HazardCategory[];
}

const llamaGuardObject = z.object({
  safe: z.boolean(),
  categories: z.array(z.string()).optional(),
});

/** One category as Llama Guard writes it: "S4", "s4", "S4: Child Sexual Exploitation", or the name alone. */
function llamaGuardCategory(raw: string): HazardCategory | null {
  const text = raw.trim();
  const code = /^s(\d{1,2})\b/i.exec(text);
  if (code) {
    const candidate = `S${Number(code[1])}`;
    return isHazardCategory(candidate) ? candidate : null;
  }
  const byName = Object.entries(HAZARD_CATEGORIES).find(([, name]) => name.toLowerCase() === text.toLowerCase());
  return byName ? (byName[0] as HazardCategory) : null;
}

/**
 * Reads what Workers AI returns for Llama Guard 3, in either documented form
 * (workers-types `Ai_Cf_Meta_Llama_Guard_3_8B_Output`):
 * - text, as the model writes it (model card, "Llama Guard 3 output"):
 *   `{ response: "safe" }`, or `{ response: "unsafe\nS1,S10" }` — "unsafe",
 *   then the codes, separated by commas, spaces or line breaks (any case;
 *   surrounding blank lines ignored); a response that is itself a JSON
 *   object is read as the object form;
 * - object: `{ response: { safe: boolean, categories?: string[] } }` with
 *   codes ("S4") or category names.
 *
 * "unsafe" without codes is `{ safe: false, categories: [] }`.
 *
 * @throws ModerationError (provider `workers-ai`) for anything else: no
 *   `response`, another word than safe/unsafe, an unknown code such as "S15".
 *   Malformed output is an error, never "safe".
 */
export function parseLlamaGuard(output: unknown): LlamaGuardResult {
  const malformed = (why: string): never => {
    throw new ModerationError(`Llama Guard output ${why}: ${JSON.stringify(output)?.slice(0, 300)}`, { provider: "workers-ai" });
  };
  const response = (output as { response?: unknown } | null)?.response;
  let object: unknown = response;
  if (typeof response === "string") {
    const text = response.trim();
    if (text.startsWith("{")) {
      try {
        object = JSON.parse(text);
      } catch {
        return malformed("is broken JSON");
      }
    } else {
      const [word = "", ...codes] = text.split(/[\s,]+/).filter(Boolean);
      if (word.toLowerCase() === "safe" && codes.length === 0) return { safe: true, categories: [] };
      if (word.toLowerCase() !== "unsafe") return malformed("is neither safe nor unsafe");
      const categories = codes.map((code) => llamaGuardCategory(code) ?? malformed(`names an unknown category ${code}`));
      return { safe: false, categories: inOrder(categories) };
    }
  }
  const parsed = llamaGuardObject.safeParse(object);
  if (!parsed.success) return malformed("has no safe/unsafe response");
  if (parsed.data.safe) return { safe: true, categories: [] };
  const categories = (parsed.data.categories ?? []).map(
    (code) => llamaGuardCategory(code) ?? malformed(`names an unknown category ${code}`),
  );
  return { safe: false, categories: inOrder(categories) };
}

/**
 * Llama Guard 3 on Workers AI. A person's text is sent as the only user turn
 * (prompt classification); a reply as the assistant turn after the person's
 * message (response classification), since Llama Guard judges the last turn
 * and its template wants turns alternating from a user turn
 * (workers-types `Ai_Cf_Meta_Llama_Guard_3_8B_Input`); a reply without
 * `context` (a greeting) follows a placeholder user turn. A person's chat
 * message with its `conversation` (recent messages, memory note, pinned
 * memories) is judged as the user turn after them: the earlier texts as
 * one user turn and a placeholder assistant turn, so that an age said
 * before and a request said now are read together, as the pre-screen
 * reads them (docs/decisions/0028).
 */
export class WorkersAIModerator implements Moderator {
  readonly name = "workers-ai" as const;
  private readonly ai: AiRunner;
  private readonly model: string;

  constructor(ai: AiRunner, model: string = LLAMA_GUARD_MODEL) {
    this.ai = ai;
    this.model = model;
  }

  /** @throws ModerationError when the binding throws or its output is not a verdict (parseLlamaGuard). */
  async screen(input: ModerationInput, { signal }: ModerationOptions = {}): Promise<ModerationVerdict> {
    const earlier = (input.conversation ?? []).map((text) => text.trim()).filter(Boolean);
    const messages =
      input.role === "user"
        ? earlier.length > 0
          ? [
              { role: "user", content: earlier.join("\n\n") },
              { role: "assistant", content: "(The conversation continues.)" },
              { role: "user", content: input.text },
            ]
          : [{ role: "user", content: input.text }]
        : [
            { role: "user", content: input.context?.trim() || "(The conversation begins.)" },
            { role: "assistant", content: input.text },
          ];
    // A verdict is at most "unsafe" and 14 codes: 64 tokens is plenty; 0 temperature for the same answer twice.
    const output = await runWorkersAI(
      this.ai,
      this.model,
      { messages, max_tokens: 64, temperature: 0 },
      signal,
      (message) => new ModerationError(message, { provider: this.name }),
    );
    const result = parseLlamaGuard(output);
    return verdictOf(this.name, !result.safe, result.categories, input.nsfw);
  }
}
