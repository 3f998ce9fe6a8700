/**
 * How a deployment picks the provider of one kind of model (embeddings,
 * pictures, speech, speech to text): the kind's own variable
 * (`EMBEDDING_PROVIDER`, `IMAGE_PROVIDER`, `SPEECH_PROVIDER`,
 * `TRANSCRIPTION_PROVIDER`), obeyed only where the provider can run. The
 * chat model and moderation choose by rules of their own (chat-models.ts,
 * moderation/choose.ts).
 */

/** What every provider reads of the Worker's `Env`, beside its kind's own variables. */
export interface ProviderEnv {
  /** Base URL of the OpenAI-compatible endpoint (`openai`), e.g. `https://api.openai.com/v1`. */
  OPENAI_BASE_URL?: string;
  OPENAI_API_KEY?: string;
  /** The Workers AI binding (`workers-ai`). */
  AI?: unknown;
}

/** The providers behind embeddings, pictures and speech. */
export type ProviderName = "workers-ai" | "openai" | "offline";

/**
 * The provider `chosen` names (any case, spaces around ignored), where it
 * can run: `workers-ai` needs the `AI` binding, `openai` an
 * `OPENAI_BASE_URL`. Anything else — empty, unknown, or a provider without
 * what it needs — is `offline`.
 */
export function chosenProvider(chosen: string | undefined, env: ProviderEnv): ProviderName {
  const provider = (chosen ?? "").trim().toLowerCase();
  if (provider === "workers-ai" && env.AI) return "workers-ai";
  if (provider === "openai" && env.OPENAI_BASE_URL) return "openai";
  return "offline";
}
