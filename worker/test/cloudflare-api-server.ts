/**
 * A stand-in for Cloudflare's REST API on loopback, answering only the cache
 * purge call (`POST /zones/{zone}/purge_cache`, bearer token) the way
 * Cloudflare documents it: `{"success": true, "errors": [], "messages": [],
 * "result": {"id": …}}`, or for the token "bad-token" a 403 with
 * `{"success": false, "errors": [{"code": 10000, "message": "Authentication error"}]}`.
 *
 * Every accepted purge is recorded per zone; `GET /__test/purges/{zone}`
 * lists them (`[{ authorization, body }]`), so test files that run at the
 * same time use their own zone ids and do not see each other's purges.
 *
 * Used two ways: as a Vitest global setup of the `worker` project (its URL
 * provided as `cloudflareApiBase`), and started directly by Node tests
 * (`startCloudflareApiStub`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of the loopback Cloudflare API stand-in, `http://127.0.0.1:<port>/client/v4`. */
    cloudflareApiBase: string;
  }
}

/** One purge call the stub accepted. */
export interface ReceivedPurge {
  authorization: string | null;
  body: unknown;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Starts the stub on a free loopback port. */
export async function startCloudflareApiStub(): Promise<{
  /** API base to use as `CLOUDFLARE_API_BASE_URL`. */
  base: string;
  purges: (zone: string) => ReceivedPurge[];
  close: () => Promise<void>;
}> {
  const received = new Map<string, ReceivedPurge[]>();
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://stub");
      const purge = /^\/client\/v4\/zones\/([^/]+)\/purge_cache$/.exec(url.pathname);
      const listed = /^\/__test\/purges\/([^/]+)$/.exec(url.pathname);
      if (req.method === "GET" && listed) return sendJson(res, 200, received.get(decodeURIComponent(listed[1]!)) ?? []);
      if (req.method !== "POST" || !purge) {
        return sendJson(res, 404, { success: false, errors: [{ code: 7003, message: "No route for that URI" }] });
      }
      const authorization = req.headers.authorization ?? null;
      if (authorization === "Bearer bad-token" || !authorization?.startsWith("Bearer ")) {
        return sendJson(res, 403, { success: false, errors: [{ code: 10000, message: "Authentication error" }], messages: [], result: null });
      }
      let body: unknown;
      try {
        body = JSON.parse(await readBody(req));
      } catch {
        return sendJson(res, 400, { success: false, errors: [{ code: 1012, message: "Request must contain one of \"purge_everything\", \"files\", \"tags\", \"hosts\" or \"prefixes\"" }] });
      }
      const zone = decodeURIComponent(purge[1]!);
      received.set(zone, [...(received.get(zone) ?? []), { authorization, body }]);
      sendJson(res, 200, { success: true, errors: [], messages: [], result: { id: zone } });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}/client/v4`,
    purges: (zone) => received.get(zone) ?? [],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Vitest global setup: starts the stub and provides its API base. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const stub = await startCloudflareApiStub();
  project.provide("cloudflareApiBase", stub.base);
  return stub.close;
}
