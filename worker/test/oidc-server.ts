/**
 * Vitest global setup of the `worker` project (runs in Node, not workerd): a
 * real OpenID Connect provider on loopback for the sign-in tests —
 * oauth2-mock-server on 127.0.0.1 with a random free port and a fresh RS256
 * signing key. Its issuer URL is provided as `oidcIssuer` and becomes the
 * Worker's `AUTH_ISSUER` (vitest.config.ts).
 *
 * The provider is real: discovery, JWKS, the authorize redirect (remembering
 * the PKCE challenge and the nonce per code), and the token endpoint (checking
 * the PKCE verifier and refusing a code used twice). To make it misbehave, a
 * test first follows the authorize redirect, then tells the control endpoint
 * what the ID token for that code must look like:
 *
 *   POST {issuer}/__test/id-token  {"code": "...", "claims": {...}, "mode": "..."}
 *
 * `claims` are merged into the ID token (e.g. `sub`, `email`, `given_name`);
 * `mode` is one of ID_TOKEN_MODES. Keyed by code, so test files running at
 * the same time do not disturb each other.
 */
import { type KeyObject, generateKeyPairSync, sign } from "node:crypto";
import type { ServerResponse } from "node:http";
import { OAuth2Server } from "oauth2-mock-server";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** Issuer URL of the loopback OpenID provider, `http://127.0.0.1:<port>`. */
    oidcIssuer: string;
  }
}

/** How the provider spoils the next ID token of a code. */
export const ID_TOKEN_MODES = [
  "valid",
  "expired",
  "wrong-signature",
  "unsigned",
  "wrong-audience",
  "wrong-nonce",
  "wrong-issuer",
  "no-id-token",
  "invalid-grant",
] as const;
type IdTokenMode = (typeof ID_TOKEN_MODES)[number];

interface Instruction {
  mode: IdTokenMode;
  claims: Record<string, unknown>;
}

const base64url = (data: string | Buffer) => Buffer.from(data).toString("base64url");

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate("RS256");
  await server.start(0, "127.0.0.1");
  const issuer = `http://127.0.0.1:${server.address().port}`;
  server.issuer.url = issuer;

  // A key the provider does not publish: tokens signed with it must be refused.
  const { privateKey: foreignKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const resign = (jwt: string, key: KeyObject | null): string => {
    const [header, payload] = jwt.split(".") as [string, string];
    if (key === null) {
      const unsignedHeader = { ...JSON.parse(Buffer.from(header, "base64url").toString()), alg: "none" };
      return `${base64url(JSON.stringify(unsignedHeader))}.${payload}.`;
    }
    const signature = sign("sha256", Buffer.from(`${header}.${payload}`), key);
    return `${header}.${payload}.${base64url(signature)}`;
  };

  const instructions = new Map<string, Instruction>();

  server.service.addRoute("POST", "/__test/id-token", (req, res) => {
    const body = req.body as { code?: unknown; mode?: unknown; claims?: unknown } | undefined;
    const mode = (body?.mode ?? "valid") as IdTokenMode;
    if (typeof body?.code !== "string" || !ID_TOKEN_MODES.includes(mode)) {
      sendJson(res, 400, { error: `code (string) and mode (${ID_TOKEN_MODES.join(", ")}) required` });
      return;
    }
    const claims = typeof body.claims === "object" && body.claims !== null ? (body.claims as Record<string, unknown>) : {};
    instructions.set(body.code, { mode, claims });
    sendJson(res, 200, { ok: true });
  });

  // The ID token is the one built with an `aud` (the access token has none).
  server.service.on("beforeTokenSigning", (token, req) => {
    const instruction = instructions.get(req.body.code ?? "");
    if (!instruction || token.payload.aud === undefined) return;
    Object.assign(token.payload, instruction.claims);
    const now = Math.floor(Date.now() / 1000);
    switch (instruction.mode) {
      case "expired":
        Object.assign(token.payload, { iat: now - 7200, nbf: now - 7200, exp: now - 3600 });
        break;
      case "wrong-audience":
        token.payload.aud = "someone-else";
        break;
      case "wrong-nonce":
        token.payload.nonce = "not-the-nonce-of-this-browser";
        break;
      case "wrong-issuer":
        token.payload.iss = "https://evil.example";
        break;
    }
  });

  server.service.on("beforeResponse", (response, req) => {
    const instruction = instructions.get(req.body.code ?? "");
    if (!instruction || typeof response.body !== "object") return;
    switch (instruction.mode) {
      case "wrong-signature":
        response.body.id_token = resign(String(response.body.id_token), foreignKey);
        break;
      case "unsigned":
        response.body.id_token = resign(String(response.body.id_token), null);
        break;
      case "no-id-token":
        delete response.body.id_token;
        break;
      case "invalid-grant":
        response.statusCode = 400;
        response.body = { error: "invalid_grant", error_description: "The code has expired" };
        break;
    }
  });

  project.provide("oidcIssuer", issuer);
  return async () => {
    await server.stop();
  };
}
