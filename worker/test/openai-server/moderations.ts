/**
 * `POST /v1/moderations` of the loopback OpenAI-compatible server: OpenAI's
 * moderation shape, flagged by markers in the input (see
 * worker/test/openai-server.ts's docstring).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { readJson } from "./http.ts";

/** The categories of OpenAI's `omni-moderation` models, in the order its responses list them. */
const MODERATION_CATEGORIES = [
  "harassment",
  "harassment/threatening",
  "hate",
  "hate/threatening",
  "illicit",
  "illicit/violent",
  "self-harm",
  "self-harm/intent",
  "self-harm/instructions",
  "sexual",
  "sexual/minors",
  "violence",
  "violence/graphic",
];

/** Input markers of `POST /v1/moderations` (see the file's docstring). */
const OPENAI_MODERATION_MARKERS = {
  minors: "MOD-MINORS",
  hate: "MOD-HATE",
  flag: "MOD-FLAG:",
  newCategory: "MOD-NEW",
  serverError: "MOD-500",
  malformed: "MOD-MALFORMED",
} as const;

/** One moderation result for `text`, in OpenAI's shape. */
function moderationResult(text: string) {
  const flagged = new Set<string>();
  if (text.includes(OPENAI_MODERATION_MARKERS.minors)) flagged.add("sexual").add("sexual/minors");
  if (text.includes(OPENAI_MODERATION_MARKERS.hate)) flagged.add("hate");
  for (const match of text.matchAll(/MOD-FLAG:([a-z/-]+)/g)) flagged.add(match[1]!);
  const categories: Record<string, boolean> = {};
  const scores: Record<string, number> = {};
  const inputTypes: Record<string, string[]> = {};
  for (const name of MODERATION_CATEGORIES) {
    categories[name] = flagged.has(name);
    scores[name] = flagged.has(name) ? 0.97 : 0.0001;
    inputTypes[name] = ["text"];
  }
  if (text.includes(OPENAI_MODERATION_MARKERS.newCategory)) {
    categories.weapons = true;
    scores.weapons = 0.95;
    inputTypes.weapons = ["text"];
    flagged.add("weapons");
  }
  return { flagged: flagged.size > 0, categories, category_scores: scores, category_applied_input_types: inputTypes };
}

/** `POST /v1/moderations`: one result per input; `MOD-500` and `MOD-MALFORMED` answer as their names say. */
export async function handleModeration(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJson<{ model?: string; input?: unknown }>(req);
  const input = body?.input;
  const texts = typeof input === "string" ? [input] : Array.isArray(input) && input.every((t) => typeof t === "string") ? (input as string[]) : null;
  if (!texts) {
    res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "bad body" } }));
    return;
  }
  if (texts.some((t) => t.includes(OPENAI_MODERATION_MARKERS.serverError))) {
    res.writeHead(500, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: "The server had an error", type: "server_error" } }));
    return;
  }
  const model = !body?.model || body.model === "omni-moderation-latest" ? "omni-moderation-2024-09-26" : body.model;
  const malformed = texts.some((t) => t.includes(OPENAI_MODERATION_MARKERS.malformed));
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      id: `modr-${Math.random().toString(36).slice(2)}`,
      model,
      results: malformed ? [] : texts.map(moderationResult),
    }),
  );
}
