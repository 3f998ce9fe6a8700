/**
 * Arguments of `wrangler dev` for local runs (npm start, npm run dev, the
 * browser tests, the benchmark): local mode (Workers AI is remote-only, so
 * local runs use the offline chat model and the offline moderation screen),
 * development environment (local sign-in), state kept in `persistTo`.
 */
export function devArgs(port: string, persistTo: string, extraVars: Record<string, string> = {}): string[] {
  const vars = { ENVIRONMENT: "development", AI_PROVIDER: "offline", MODERATION_PROVIDER: "offline", ...extraVars };
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
