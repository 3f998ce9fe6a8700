/**
 * A person's model connections (DESIGN.md "Your own model (turn 3)"): the
 * wire shape of `/api/model-connections`, the input rules with their
 * messages (shared by the Worker and the web form), and the generation
 * settings, named after OpenAI's chat-completions parameters so they map one
 * to one (`topP` → `top_p`, `maxTokens` → `max_tokens`, `frequencyPenalty` →
 * `frequency_penalty`, `stop` → `stop`; `contextTokens` is Fabled's own: the
 * prompt budget).
 */
import { z } from "zod";
import { visibleName } from "./names.ts";

/** `openai`: an OpenAI-compatible endpoint (base URL, key, model); `site`: one of the operator's models. */
export const MODEL_CONNECTION_KINDS = ["openai", "site"] as const;
export type ModelConnectionKind = (typeof MODEL_CONNECTION_KINDS)[number];

/** At most this many connections per person. */
export const MAX_MODEL_CONNECTIONS = 20;
/** Longest connection name, characters. */
export const MAX_CONNECTION_NAME_LENGTH = 60;
/** Longest base URL, characters. */
export const MAX_BASE_URL_LENGTH = 500;
/** Longest API key, characters (OpenRouter's are ~75, JWT-style keys a few hundred). */
export const MAX_API_KEY_LENGTH = 1000;
/** Longest model name, characters (`@cf/…`, `org/model:tag`). */
export const MAX_MODEL_NAME_LENGTH = 200;
/** At most this many stop strings (OpenAI's limit is 4; llama.cpp and Ollama take more). */
export const MAX_STOP_STRINGS = 8;
/** Longest stop string, characters. */
export const MAX_STOP_LENGTH = 50;

/** Bounds of each generation setting (DESIGN.md). */
export const SETTING_BOUNDS = {
  temperature: { min: 0, max: 2 },
  topP: { min: 0, max: 1 },
  maxTokens: { min: 16, max: 4096 },
  contextTokens: { min: 1024, max: 131072 },
  frequencyPenalty: { min: -2, max: 2 },
} as const;

const bounded = (label: string, key: keyof typeof SETTING_BOUNDS, int = false) => {
  const { min, max } = SETTING_BOUNDS[key];
  const base = z.number({ error: `${label} must be a number` });
  return (int ? base.int(`${label} must be a whole number`) : base)
    .min(min, `${label} must be between ${min} and ${max}`)
    .max(max, `${label} must be between ${min} and ${max}`)
    .optional();
};

/**
 * Generation settings; every field optional (left out: the endpoint's own
 * default, or the site's AI_MAX_TOKENS / AI_CONTEXT_TOKENS for the budget).
 * `maxTokens` and `contextTokens` are tokens.
 */
export const modelSettingsSchema = z.strictObject(
  {
    temperature: bounded("Temperature", "temperature"),
    topP: bounded("Top-p", "topP"),
    maxTokens: bounded("Max reply tokens", "maxTokens", true),
    contextTokens: bounded("Context size", "contextTokens", true),
    frequencyPenalty: bounded("Frequency penalty", "frequencyPenalty"),
    stop: z
      .array(
        z
          .string({ error: "Each stop string must be text" })
          .min(1, "A stop string cannot be empty")
          .max(MAX_STOP_LENGTH, `A stop string can be at most ${MAX_STOP_LENGTH} characters`),
        { error: "Stop strings must be a list of text" },
      )
      .max(MAX_STOP_STRINGS, `At most ${MAX_STOP_STRINGS} stop strings`)
      .optional(),
  },
  { error: "settings must be an object of temperature, topP, maxTokens, contextTokens, frequencyPenalty and stop" },
);
export type ModelSettings = z.output<typeof modelSettingsSchema>;

/** `GET /api/model-connections` rows: the key itself never leaves the Worker (`keyHint`: its last four characters). */
export interface ModelConnection {
  id: string;
  name: string;
  kind: ModelConnectionKind;
  /** The endpoint's base URL (e.g. `http://127.0.0.1:11434/v1`); null for `site`. */
  baseUrl: string | null;
  model: string;
  /**
   * The endpoint's embedding model (`/embeddings`) that embeds this person's
   * chats for memory (DESIGN.md "Memory"); null: the site's embedder. Always
   * null for `site`.
   */
  embeddingModel: string | null;
  /** The endpoint's image model for `/images/generations` (DESIGN.md "Pictures"); null: pictures come from the site's generator. Always null for `site`. */
  imageModel: string | null;
  /** The key's last four characters; null without a key. */
  keyHint: string | null;
  settings: ModelSettings;
  isDefault: boolean;
}

const connectionFields = {
  name: z
    .string({ error: "Name is required" })
    .trim()
    .min(1, "Name is required")
    .max(MAX_CONNECTION_NAME_LENGTH, `Name can be at most ${MAX_CONNECTION_NAME_LENGTH} characters`)
    .refine(...visibleName),
  kind: z.enum(MODEL_CONNECTION_KINDS, { error: 'kind must be "openai" or "site"' }),
  baseUrl: z
    .string({ error: "Base URL must be text" })
    .trim()
    .max(MAX_BASE_URL_LENGTH, `Base URL can be at most ${MAX_BASE_URL_LENGTH} characters`)
    .nullable(),
  apiKey: z
    .string({ error: "API key must be text" })
    .trim()
    .max(MAX_API_KEY_LENGTH, `API key can be at most ${MAX_API_KEY_LENGTH} characters`)
    .nullable(),
  model: z
    .string({ error: "Model is required" })
    .trim()
    .min(1, "Model is required")
    .max(MAX_MODEL_NAME_LENGTH, `Model can be at most ${MAX_MODEL_NAME_LENGTH} characters`),
  /** "" or null: none (the site's embedder remembers the chat). */
  embeddingModel: z
    .string({ error: "Embedding model must be text" })
    .trim()
    .max(MAX_MODEL_NAME_LENGTH, `Embedding model can be at most ${MAX_MODEL_NAME_LENGTH} characters`)
    .nullable()
    .transform((name) => name || null),
  /** "" or null: none (pictures come from the site's generator). */
  imageModel: z
    .string({ error: "Image model must be text" })
    .trim()
    .max(MAX_MODEL_NAME_LENGTH, `Image model can be at most ${MAX_MODEL_NAME_LENGTH} characters`)
    .nullable()
    .transform((name) => name || null),
  settings: modelSettingsSchema,
  isDefault: z.boolean({ error: "isDefault must be true or false" }),
};

/**
 * `POST /api/model-connections` `{name, kind, baseUrl?, apiKey?, model,
 * embeddingModel?, imageModel?, settings?, isDefault?}` (`embeddingModel`, `imageModel` "" or null: none). An `openai` connection needs a base URL (checked
 * further by the Worker's endpoint rules); `apiKey` "" or null: none.
 */
export const modelConnectionInputSchema = z
  .object({
    ...connectionFields,
    baseUrl: connectionFields.baseUrl.optional(),
    apiKey: connectionFields.apiKey.optional(),
    embeddingModel: connectionFields.embeddingModel.optional(),
    imageModel: connectionFields.imageModel.optional(),
    settings: connectionFields.settings.default({}),
    isDefault: connectionFields.isDefault.optional(),
  })
  .refine((input) => input.kind !== "openai" || Boolean(input.baseUrl), {
    error: "Base URL is required for an OpenAI-compatible endpoint",
    path: ["baseUrl"],
  });
export type ModelConnectionInput = z.output<typeof modelConnectionInputSchema>;

/**
 * `PUT /api/model-connections/{id}`: any of the fields (left out: kept), at
 * least one. `apiKey`: a new key; "" or null removes it. `settings` replaces
 * the settings as a whole.
 */
export const modelConnectionUpdateSchema = z
  .object(connectionFields)
  .partial()
  .refine((fields) => Object.values(fields).some((value) => value !== undefined), {
    error: "Nothing to change: send a name, kind, baseUrl, apiKey, model, imageModel, settings or isDefault",
  });
export type ModelConnectionUpdate = z.output<typeof modelConnectionUpdateSchema>;

/**
 * "Test connection": `POST /api/model-connections/test` `{baseUrl, apiKey?,
 * id?}` lists the endpoint's models. With `id` and no `apiKey`, the stored
 * key of that (own) connection is used, so a person editing a connection
 * need not type the key again.
 */
export const modelConnectionTestSchema = z.object({
  baseUrl: connectionFields.baseUrl.unwrap().min(1, "Base URL is required"),
  apiKey: connectionFields.apiKey.optional(),
  id: z.string({ error: "id must be a connection id" }).max(64).optional(),
});

/**
 * Why a saved key may not follow a base URL to another origin: the key is
 * write-only (no answer ever holds it), so whoever holds the session must
 * not be able to send it to an address of their choosing either
 * (docs/decisions/0027). Said on `apiKey`.
 */
export const KEY_STAYS_WITH_ITS_ADDRESS =
  "Enter the API key again to use another address: a saved key is sent only to the address it was saved with";

/** The origin (`https://host:port`) of `url`, or null when it is not an absolute http(s) URL. */
export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.origin : null;
  } catch {
    return null;
  }
}

/** Whether `a` and `b` are URLs of one origin (scheme, host and port), the web's boundary for credentials. */
export function sameOrigin(a: string, b: string): boolean {
  const origin = originOf(a);
  return origin !== null && origin === originOf(b);
}

/** `POST /api/model-connections/test` → 200: the endpoint's model ids, sorted. */
export interface ModelList {
  models: string[];
}

/** `GET /api/model-connections/site-models` → 200: the operator's models a `site` connection may name. */
export interface SiteModels {
  models: string[];
  /** The model used when the person picks none. */
  default: string;
}

/** Where a model failure's text sends the person (ai/model-connection.ts `endpointFailureText`); the chat makes it a link. */
export const SETTINGS_MODELS_WORDS = "Settings → Models";
