/**
 * Which model writes a reply (DESIGN.md "Your own model (turn 3)",
 * docs/decisions/0018-your-own-model.md): the connection picked for the
 * conversation, else the owner's default connection, else the site's model
 * (`AI_PROVIDER`). In a shared room the owner's choice answers: the
 * connection is always read for the room's `user_id`.
 *
 * The choice is read from D1 at each reply (one indexed query, beside the
 * card), so a change in Settings → Models or the chat's Model menu reaches
 * the very next reply without telling the room.
 *
 * - `openai`: the person's endpoint (ai/model-connection.ts PersonChatModel:
 *   endpoint rules checked again at each request and redirect, body capped,
 *   key decrypted here and never logged), with their settings.
 * - `site`: one of the operator's models (`siteModels`), with the person's
 *   settings; the context size is at most the site's AI_CONTEXT_TOKENS.
 * - A failure of the person's endpoint is told in their words
 *   (`endpointFailureText`: "Your model endpoint answered 401 — check the key
 *   in Settings → Models."), never with the key.
 */
import type { ChatModel, Sampling } from "../../ai/chat-model.ts";
import { createChatModel } from "../../ai/chat-models.ts";
import type { Embedder } from "../../ai/embeddings/embedder.ts";
import { createEmbedder } from "../../ai/embeddings/embedders.ts";
import { endpointFailureText, PersonChatModel, PersonEmbedder, samplingOf, siteModels } from "../../ai/model-connection.ts";
import { decryptApiKey, isDevelopment } from "../../ai/model-keys.ts";
import { modelSettingsSchema, type ModelSettings } from "../../schema/model-connections.ts";
import type { D1Sync, ReplyCharacter, ReplyConnectionRow } from "./d1-sync.ts";

/** The model of one reply and what the person set for it. */
export interface ReplyModel {
  /** Makes the model; null: the room's default (`seams.modelFactory`, the site's model). */
  model: ((character: ReplyCharacter, userName: string) => ChatModel) | null;
  /** The person's budget, tokens: each replaces AI_MAX_TOKENS / AI_CONTEXT_TOKENS when set. */
  budget: { maxTokens?: number; contextTokens?: number };
  sampling: Sampling;
  /** The words a person reads when this model failed; null: the room's usual "couldn't reply" line. */
  failureText(error: unknown): string | null;
  /** The model's name as the prompt inspector shows it; null: the site's default model. */
  modelName: string | null;
}

const SITE_DEFAULT: ReplyModel = { model: null, budget: {}, sampling: {}, failureText: () => null, modelName: null };

function settingsOf(text: string): ModelSettings {
  try {
    const parsed = modelSettingsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** The prompt's `options` with the person's budget where they set one. */
export function withBudget<T extends { maxTokens: number; contextTokens: number }>(options: T, budget: ReplyModel["budget"]): T {
  return {
    ...options,
    maxTokens: budget.maxTokens ?? options.maxTokens,
    contextTokens: budget.contextTokens ?? options.contextTokens,
  };
}

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

export class ModelChoice {
  private readonly env: Env;
  private readonly d1: D1Sync;
  private readonly userId: () => string;

  constructor(env: Env, d1: D1Sync, userId: () => string) {
    this.env = env;
    this.d1 = d1;
    this.userId = userId;
  }

  /**
   * The model of the next reply. Never throws for the person's endpoint (a
   * key that cannot be read becomes a model that fails with its words);
   * throws what D1 throws.
   */
  async forReply(): Promise<ReplyModel> {
    const row = await this.d1.readConnection();
    if (!row) return SITE_DEFAULT;
    const settings = settingsOf(row.settings);
    const sampling = samplingOf(settings);
    if (row.kind === "site") return this.siteModel(row, settings, sampling);
    let apiKey: string | undefined;
    let keyError: unknown = null;
    try {
      apiKey = row.sealed ? await decryptApiKey(this.env, { connectionId: row.id, userId: this.userId() }, row.sealed) : undefined;
    } catch (error) {
      keyError = error;
    }
    const model: ChatModel = keyError
      ? {
          name: "openai",
          stream: async function* () {
            throw keyError;
          },
        }
      : new PersonChatModel({
          baseUrl: row.baseUrl ?? "",
          apiKey,
          model: row.model,
          policy: { development: isDevelopment(this.env), siteHost: null },
        });
    return {
      model: () => model,
      budget: { maxTokens: settings.maxTokens, contextTokens: settings.contextTokens },
      sampling,
      failureText: endpointFailureText,
      modelName: row.model,
    };
  }

  /**
   * The embedder of the person's connection when it names an
   * `embeddingModel` (DESIGN.md "Memory"); null: the site's embedder. A key
   * that cannot be read is logged and gives null (memory goes on with the
   * site's embedder; the reply says what is wrong with the key). Throws what
   * D1 throws.
   */
  async embedder(): Promise<Embedder | null> {
    const row = await this.d1.readConnection();
    if (!row || row.kind !== "openai" || !row.embeddingModel || !row.baseUrl) return null;
    let apiKey: string | undefined;
    try {
      apiKey = row.sealed ? await decryptApiKey(this.env, { connectionId: row.id, userId: this.userId() }, row.sealed) : undefined;
    } catch (error) {
      console.warn("the connection's key cannot be read; memory uses the site's embedder", String(error));
      return null;
    }
    return new PersonEmbedder({ baseUrl: row.baseUrl, apiKey, model: row.embeddingModel, policy: { development: isDevelopment(this.env), siteHost: null } });
  }

  private siteModel(row: ReplyConnectionRow, settings: ModelSettings, sampling: Sampling): ReplyModel {
    const siteContext = positive(this.env.AI_CONTEXT_TOKENS, 8192);
    // A model the operator has since taken off the list falls back to the site's default.
    const models = siteModels(this.env);
    const picked = models.includes(row.model) && row.model !== models[0] ? row.model : null;
    return {
      model: picked ? (character, userName) => createChatModel({ ...this.env, AI_MODEL: picked }, character, userName) : null,
      budget: {
        maxTokens: settings.maxTokens,
        contextTokens: settings.contextTokens === undefined ? undefined : Math.min(settings.contextTokens, siteContext),
      },
      sampling,
      failureText: () => null,
      modelName: picked,
    };
  }
}

/** The chat's embedder choice is read from D1 again after this long, ms (`chatEmbedder`). */
export const EMBEDDER_CHOICE_TTL_MS = 60_000;

/**
 * The chat's embedder (DESIGN.md "Memory"), for the room's store: the
 * owner's connection's `embeddingModel` when it names one, else the site's
 * (EMBEDDING_PROVIDER). The choice is read from D1 again after
 * EMBEDDER_CHOICE_TTL_MS, so a change in Settings → Models reaches memory
 * within it; vectors of the other embedder are embedded again
 * (room/memory.ts). `d1` and `ownerId` are read at each use (the store is
 * made before the room's D1Sync; `ownerId` is null before the room exists).
 * A failing read of the person's connection falls back to the site's.
 */
export function chatEmbedder(env: Env, d1: () => D1Sync, ownerId: () => string | null): () => Promise<Embedder> {
  let site: Embedder | null = null;
  let chosen: { value: Promise<Embedder>; at: number } | null = null;
  let choice: ModelChoice | null = null;
  return () => {
    const now = Date.now();
    if (!chosen || now - chosen.at > EMBEDDER_CHOICE_TTL_MS) {
      const owner = ownerId();
      choice ??= new ModelChoice(env, d1(), () => ownerId()!);
      const own = owner !== null ? choice.embedder().catch(() => null) : Promise.resolve(null);
      chosen = { value: own.then((embedder) => embedder ?? (site ??= createEmbedder(env))), at: now };
    }
    return chosen.value;
  };
}
