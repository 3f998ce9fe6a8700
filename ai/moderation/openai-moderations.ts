/**
 * The `openai` moderator: any OpenAI-compatible moderations endpoint,
 * `POST {MODERATION_BASE_URL or OPENAI_BASE_URL}/moderations` (the HTTP
 * plumbing is ../endpoints.ts); OpenAI's categories are mapped to Llama
 * Guard's (`OPENAI_CATEGORY_HAZARDS`). Failures throw ModerationError
 * (provider `openai`, with the HTTP `status` when there was an answer).
 */
import { z } from "zod";
import { endpointUrl, failureDetail, type OpenAIEndpoint, postJson } from "../endpoints.ts";
import {
  type HazardCategory,
  ModerationError,
  type ModerationInput,
  type ModerationOptions,
  type ModerationVerdict,
  type Moderator,
  verdictOf,
} from "./moderator.ts";

/**
 * OpenAI moderation categories (`results[].categories` of
 * https://platform.openai.com/docs/api-reference/moderations/object, models
 * `omni-moderation-*` and `text-moderation-*`) → the nearest Llama Guard 3
 * category. Judgement calls: harassment has no category of its own in the
 * MLCommons taxonomy, so it counts as Hate (S10), its threatening form too;
 * "illicit/violent" (wrongdoing with violence or weapons) as Violent Crimes
 * (S1); OpenAI's "violence" covers depictions as well, which Llama Guard's S1
 * does not, so this provider flags more fiction than Llama Guard does.
 * Categories not in the table (a newer model's) are ignored; a result
 * `flagged` only through them is "unsafe" with no category.
 */
export const OPENAI_CATEGORY_HAZARDS: Readonly<Record<string, HazardCategory>> = {
  "sexual/minors": "S4",
  sexual: "S12",
  hate: "S10",
  "hate/threatening": "S10",
  harassment: "S10",
  "harassment/threatening": "S10",
  "self-harm": "S11",
  "self-harm/intent": "S11",
  "self-harm/instructions": "S11",
  violence: "S1",
  "violence/graphic": "S1",
  illicit: "S2",
  "illicit/violent": "S1",
};

/** The model the `openai` provider asks for unless `MODERATION_MODEL` names another. */
export const OPENAI_MODERATION_MODEL = "omni-moderation-latest";

const openAIModeration = z.object({
  results: z
    .array(
      z.object({
        flagged: z.boolean(),
        categories: z.record(z.string(), z.boolean().nullable()),
      }),
    )
    .min(1),
});

/** An OpenAI-compatible moderations endpoint. */
export interface OpenAIModerationConfig extends OpenAIEndpoint {
  /** e.g. `https://api.openai.com/v1`; `/moderations` is appended. */
  baseUrl: string;
  /** Default OPENAI_MODERATION_MODEL. */
  model?: string;
}

/**
 * `POST {baseUrl}/moderations` with `{ model, input: text }`; the answer's
 * first result decides: `flagged: false` is safe, else the categories marked
 * true, mapped by OPENAI_CATEGORY_HAZARDS. `context` is not sent (the
 * endpoint judges single texts).
 */
export class OpenAIModerator implements Moderator {
  readonly name = "openai" as const;
  private readonly config: OpenAIModerationConfig;
  private readonly url: string;

  constructor(config: OpenAIModerationConfig) {
    this.config = config;
    this.url = endpointUrl(config.baseUrl, "moderations");
  }

  /** @throws ModerationError on a network failure, a non-2xx status (with `status`), or a body without `results[0].flagged`. */
  async screen(input: ModerationInput, { signal }: ModerationOptions = {}): Promise<ModerationVerdict> {
    const fail = (message: string, status?: number) => new ModerationError(message, { provider: this.name, status });
    const response = await postJson(
      this.config,
      this.url,
      { model: this.config.model || OPENAI_MODERATION_MODEL, input: input.text },
      { accept: "application/json", signal },
      fail,
    );
    const status = response.status;
    let body: string;
    try {
      body = await response.text();
    } catch (error) {
      if (signal?.aborted) throw error;
      throw fail(`${this.url}: ${failureDetail(error)}`, status);
    }
    let json: unknown = null;
    try {
      json = JSON.parse(body);
    } catch {
      // Not JSON: reported below as no result.
    }
    const parsed = openAIModeration.safeParse(json);
    if (!parsed.success) {
      throw new ModerationError(`${this.url} answered no moderation result: ${body.slice(0, 300)}`, { provider: this.name, status });
    }
    const result = parsed.data.results[0]!;
    if (!result.flagged) return { safe: true, categories: [], provider: this.name };
    const categories = Object.entries(result.categories).flatMap(([name, on]) => {
      const code = on && Object.hasOwn(OPENAI_CATEGORY_HAZARDS, name) ? OPENAI_CATEGORY_HAZARDS[name] : undefined;
      return code ? [code] : [];
    });
    return verdictOf(this.name, true, categories, input.nsfw);
  }
}
