/**
 * Arguments of `wrangler dev` for local runs (npm start, npm run dev, the
 * browser tests, the benchmark): local mode (Workers AI is remote-only, so
 * local runs use the offline chat model, the offline moderation screen and
 * the offline synthesizer, embedder and painter, without speech to text),
 * development environment (local sign-in), state kept in `persistTo`.
 */
export function devArgs(port: string, persistTo: string, extraVars: Record<string, string> = {}): string[] {
  // Speech is read by eSpeak NG inside the Worker; there is no offline speech to text (no microphone button).
  const vars = {
    ENVIRONMENT: "development",
    AI_PROVIDER: "offline",
    MODERATION_PROVIDER: "offline",
    SPEECH_PROVIDER: "offline",
    TRANSCRIPTION_PROVIDER: "",
    EMBEDDING_PROVIDER: "offline",
    IMAGE_PROVIDER: "offline",
    ...extraVars,
  };
  return [
    "dev",
    "--local",
    "--port",
    port,
    "--ip",
    "127.0.0.1",
    "--persist-to",
    persistTo,
    ...Object.entries(vars).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
    "--show-interactive-dev-session=false",
  ];
}
