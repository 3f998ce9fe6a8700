/**
 * Which moderator screens in this deployment, by configuration
 * (`MODERATION_PROVIDER`, else following `AI_PROVIDER` like the chat model,
 * ../chat-models.ts `chatModelName`), and building it. Throws
 * ModerationError for a configuration that cannot work.
 */
import type { AiRunner } from "../endpoints.ts";
import { LLAMA_GUARD_MODEL, WorkersAIModerator } from "./llama-guard.ts";
import { ModerationError, type Moderator, type ModeratorName, MODERATORS } from "./moderator.ts";
import { OfflineModerator } from "./offline-screen.ts";
import { OPENAI_MODERATION_MODEL, OpenAIModerator } from "./openai-moderations.ts";
import { PreScreenedModerator } from "./pre-screen.ts";

/** The bindings and variables the providers read (a subset of the Worker's and the Durable Object's `Env`). */
export interface ModeratorEnv {
  /** `workers-ai` | `openai` | `offline`; empty or absent: follow AI_PROVIDER. */
  MODERATION_PROVIDER?: string;
  /** Model of the chosen provider; empty: LLAMA_GUARD_MODEL or OPENAI_MODERATION_MODEL. */
  MODERATION_MODEL?: string;
  /** Base URL of the `openai` provider's endpoint; empty: OPENAI_BASE_URL. */
  MODERATION_BASE_URL?: string;
  /** Key of MODERATION_BASE_URL; absent: OPENAI_API_KEY. */
  MODERATION_API_KEY?: string;
  AI_PROVIDER?: string;
  OPENAI_BASE_URL?: string;
  OPENAI_API_KEY?: string;
  AI?: unknown;
}

/**
 * Which provider moderates in this deployment.
 *
 * An explicit `MODERATION_PROVIDER` is obeyed or refused, never replaced by
 * the stand-in: `workers-ai` needs the `AI` binding and `openai` a base URL
 * (`MODERATION_BASE_URL`, else `OPENAI_BASE_URL`). Without one, moderation
 * follows `AI_PROVIDER` the way the chat model does (chat-models.ts
 * `chatModelName`): `workers-ai` with the binding, `openai` with
 * `OPENAI_BASE_URL`, otherwise `offline` — a deployment whose chat model is
 * the offline one gets the offline screen.
 *
 * @throws ModerationError for an unknown `MODERATION_PROVIDER` (no
 *   `provider`) or one whose binding or URL is missing.
 */
export function moderatorName(env: ModeratorEnv): ModeratorName {
  const chosen = (env.MODERATION_PROVIDER ?? "").trim().toLowerCase();
  const baseUrl = env.MODERATION_BASE_URL || env.OPENAI_BASE_URL;
  if (chosen === "") {
    const chat = (env.AI_PROVIDER ?? "").trim().toLowerCase();
    if (chat === "workers-ai" && env.AI) return "workers-ai";
    if (chat === "openai" && baseUrl) return "openai";
    return "offline";
  }
  if (chosen === "workers-ai") {
    if (!env.AI) throw new ModerationError("MODERATION_PROVIDER is workers-ai but there is no AI binding", { provider: chosen });
    return chosen;
  }
  if (chosen === "openai") {
    if (!baseUrl) {
      throw new ModerationError("MODERATION_PROVIDER is openai but neither MODERATION_BASE_URL nor OPENAI_BASE_URL is set", { provider: chosen });
    }
    return chosen;
  }
  if (chosen === "offline") return chosen;
  throw new ModerationError(`MODERATION_PROVIDER ${JSON.stringify(chosen)} is not one of ${MODERATORS.join(", ")}`);
}

/**
 * The moderator of this deployment (moderatorName) behind the pre-screen
 * (pre-screen.ts: the clearest cases of minors in sexual content are refused
 * as S4 before any provider is asked; docs/decisions/0014). Cheap: call it
 * per request.
 *
 * @throws ModerationError when the configuration cannot work (moderatorName).
 */
export function moderatorFor(env: ModeratorEnv): PreScreenedModerator {
  return new PreScreenedModerator(providerFor(env));
}

/** The provider moderatorName picks, without the pre-screen. */
function providerFor(env: ModeratorEnv): Moderator {
  switch (moderatorName(env)) {
    case "workers-ai":
      return new WorkersAIModerator(env.AI as AiRunner, env.MODERATION_MODEL || LLAMA_GUARD_MODEL);
    case "openai":
      return new OpenAIModerator({
        baseUrl: (env.MODERATION_BASE_URL || env.OPENAI_BASE_URL)!,
        apiKey: env.MODERATION_API_KEY ?? env.OPENAI_API_KEY,
        model: env.MODERATION_MODEL || OPENAI_MODERATION_MODEL,
      });
    case "offline":
      return new OfflineModerator();
  }
}
