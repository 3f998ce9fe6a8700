/**
 * What the handlers of the loopback OpenAI-compatible server
 * (worker/test/openai-server.ts) share: reading a JSON body, a pause.
 */
import type { IncomingMessage } from "node:http";

/** A pause of `ms` milliseconds that does not keep the process alive. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/** The request's body parsed as JSON; null when it is not JSON. */
export async function readJson<T>(req: IncomingMessage): Promise<T | null> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  try {
    return JSON.parse(Buffer.concat(parts).toString("utf8")) as T;
  } catch {
    return null;
  }
}
