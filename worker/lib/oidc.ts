/**
 * OpenID Connect sign-in (authorization-code flow with PKCE) against any
 * standard provider named by `AUTH_ISSUER`:
 * - the provider's endpoints come from its discovery document
 *   (`${issuer}/.well-known/openid-configuration`, OpenID Connect Discovery 1.0 §4),
 *   cached per isolate;
 * - the authorization URL and the code exchange go through arctic's generic
 *   `OAuth2Client` (PKCE S256, RFC 7636);
 * - the ID token is verified with jose against the provider's JWKS (cached per
 *   isolate by `createRemoteJWKSet`): signature, `iss`, `aud`, `exp`, `nonce`
 *   (OpenID Connect Core 1.0 §3.1.3.7).
 *
 * Every way the flow can fail on the provider's or the visitor's side throws
 * `SignInError`, whose `reason` is a sentence a person understands.
 */
import { CodeChallengeMethod, OAuth2Client, OAuth2RequestError, generateCodeVerifier, generateState } from "arctic";
import { createRemoteJWKSet, errors as joseErrors, jwtVerify } from "jose";
import { z } from "zod";

/** The provider settings of this deployment. */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  /** null for a public client (PKCE only). */
  clientSecret: string | null;
}

/** What the flow needs from the discovery document. */
export interface ProviderMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

/** The ID token claims a user is made from. */
export interface IdTokenClaims {
  /** `iss` + " " + `sub`: the person's stable id at the provider. */
  subject: string;
  email: string | null;
  emailVerified: boolean;
  givenName: string | null;
  familyName: string | null;
  name: string | null;
  picture: string | null;
}

/** A sign-in that cannot complete; `reason` finishes the sentence "Sign-in failed: …". */
export class SignInError extends Error {
  readonly reason: string;
  constructor(reason: string, options?: { cause?: unknown }) {
    super(`Sign-in failed: ${reason}`, options);
    this.name = "SignInError";
    this.reason = reason;
  }
}

/** The scopes asked for: the ID token plus the person's name, picture and e-mail. */
export const OIDC_SCOPES = ["openid", "profile", "email"];

/** How long a fetched discovery document is trusted, ms. */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
/** Longest wait for the discovery document, ms (the JWKS fetch has jose's own 5 s limit). */
const DISCOVERY_TIMEOUT_MS = 5000;
/** Allowed clock difference between us and the provider for `exp`/`iat`/`nbf`, s. */
const CLOCK_TOLERANCE_S = 30;
/**
 * Asymmetric algorithms only: the keys come from a public JWKS, and allowing
 * `none` or HMAC would let a token be forged with public material.
 */
const ID_TOKEN_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"];

/** The provider settings, or null when sign-in through a provider is not configured. */
export function oidcConfig(env: Env): OidcConfig | null {
  const issuer = env.AUTH_ISSUER?.trim();
  const clientId = env.AUTH_CLIENT_ID?.trim();
  if (!issuer || !clientId) return null;
  return { issuer, clientId, clientSecret: env.AUTH_CLIENT_SECRET?.trim() || null };
}

const metadataSchema = z.object({
  issuer: z.string().min(1),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
});

const discoveryCache = new Map<string, { metadata: Promise<ProviderMetadata>; fetchedAt: number }>();
const jwksCache = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, "");

/**
 * The provider's discovery document, fetched once per isolate and hour.
 * Throws `SignInError` when it cannot be fetched or does not describe
 * `issuer` (Discovery §4.3: the document's `issuer` must be the one asked for).
 */
export async function discover(issuer: string, now = Date.now()): Promise<ProviderMetadata> {
  const cached = discoveryCache.get(issuer);
  if (cached && now - cached.fetchedAt < DISCOVERY_TTL_MS) return cached.metadata;
  const metadata = fetchMetadata(issuer);
  discoveryCache.set(issuer, { metadata, fetchedAt: now });
  // A failure is not remembered: the next request tries again.
  metadata.catch(() => {
    if (discoveryCache.get(issuer)?.metadata === metadata) discoveryCache.delete(issuer);
  });
  return metadata;
}

async function fetchMetadata(issuer: string): Promise<ProviderMetadata> {
  const url = `${withoutTrailingSlash(issuer)}/.well-known/openid-configuration`;
  let body: unknown;
  try {
    const res = await fetch(url, { headers: { Accept: "application/json" }, signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    body = await res.json();
  } catch (cause) {
    throw new SignInError("the sign-in service could not be reached. Please try again in a moment.", { cause });
  }
  const parsed = metadataSchema.safeParse(body);
  if (!parsed.success || withoutTrailingSlash(parsed.data.issuer) !== withoutTrailingSlash(issuer)) {
    throw new SignInError("the sign-in service is misconfigured. Please try again later.", {
      cause: parsed.error ?? new Error(`discovery issuer ${parsed.data?.issuer} is not ${issuer}`),
    });
  }
  return parsed.data;
}

function remoteJwks(jwksUri: string): ReturnType<typeof createRemoteJWKSet> {
  let jwks = jwksCache.get(jwksUri);
  if (!jwks) {
    jwks = createRemoteJWKSet(new URL(jwksUri));
    jwksCache.set(jwksUri, jwks);
  }
  return jwks;
}

/** A started sign-in: where to send the browser, and what to keep in cookies until it returns. */
export interface Authorization {
  url: URL;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/**
 * Starts a sign-in: fresh `state`, `nonce` and PKCE code verifier (each 32
 * random bytes, base64url) and the provider's authorization URL asking for
 * `openid profile email` with an S256 code challenge.
 */
export async function createAuthorization(config: OidcConfig, redirectUri: string): Promise<Authorization> {
  const metadata = await discover(config.issuer);
  const client = new OAuth2Client(config.clientId, config.clientSecret, redirectUri);
  const state = generateState();
  const nonce = generateState();
  const codeVerifier = generateCodeVerifier();
  const url = client.createAuthorizationURLWithPKCE(
    metadata.authorization_endpoint,
    state,
    CodeChallengeMethod.S256,
    codeVerifier,
    OIDC_SCOPES,
  );
  url.searchParams.set("nonce", nonce);
  return { url, state, nonce, codeVerifier };
}

/**
 * Finishes a sign-in: exchanges `code` (with the PKCE verifier) at the token
 * endpoint and verifies the ID token it returns. Throws `SignInError` when the
 * provider refuses the code (e.g. it was already used), sends no ID token, or
 * the token fails any check.
 */
export async function completeAuthorization(
  config: OidcConfig,
  redirectUri: string,
  code: string,
  codeVerifier: string,
  expectedNonce: string,
): Promise<IdTokenClaims> {
  const metadata = await discover(config.issuer);
  const client = new OAuth2Client(config.clientId, config.clientSecret, redirectUri);
  let idToken: string;
  try {
    const tokens = await client.validateAuthorizationCode(metadata.token_endpoint, code, codeVerifier);
    idToken = tokens.idToken();
  } catch (cause) {
    if (cause instanceof OAuth2RequestError && cause.code === "invalid_grant") {
      throw new SignInError("the sign-in code was already used or has expired. Please sign in again.", { cause });
    }
    throw new SignInError("the sign-in service did not accept the sign-in. Please sign in again.", { cause });
  }
  return verifyIdToken(idToken, metadata, config.clientId, expectedNonce);
}

const claimsSchema = z.object({
  iss: z.string().min(1),
  sub: z.string().min(1).max(255),
  email: z.string().max(254).optional().catch(undefined),
  // Some providers send the boolean as a string.
  email_verified: z
    .union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")])
    .optional()
    .catch(undefined),
  given_name: z.string().optional().catch(undefined),
  family_name: z.string().optional().catch(undefined),
  name: z.string().optional().catch(undefined),
  picture: z.string().optional().catch(undefined),
});

/**
 * Verifies an ID token (OpenID Connect Core §3.1.3.7): signed by a key of the
 * provider's JWKS with an asymmetric algorithm, `iss` = the provider, `aud`
 * containing our client id (and `azp` = our client id when present), not
 * expired, `nonce` = the one this browser was given.
 */
export async function verifyIdToken(
  idToken: string,
  metadata: ProviderMetadata,
  clientId: string,
  expectedNonce: string,
): Promise<IdTokenClaims> {
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(idToken, remoteJwks(metadata.jwks_uri), {
      issuer: metadata.issuer,
      audience: clientId,
      algorithms: ID_TOKEN_ALGORITHMS,
      clockTolerance: CLOCK_TOLERANCE_S,
      requiredClaims: ["sub", "exp", "iat"],
    }));
  } catch (cause) {
    if (cause instanceof joseErrors.JWTExpired) {
      throw new SignInError("the sign-in answer has expired. Please sign in again.", { cause });
    }
    throw new SignInError("the sign-in answer could not be verified. Please sign in again.", { cause });
  }
  if (typeof payload.nonce !== "string" || !timingSafeEqual(payload.nonce, expectedNonce)) {
    throw new SignInError("the sign-in answer was not meant for this browser. Please sign in again.");
  }
  if (payload.azp !== undefined && payload.azp !== clientId) {
    throw new SignInError("the sign-in answer was meant for another application. Please sign in again.");
  }
  const claims = claimsSchema.safeParse(payload);
  if (!claims.success) {
    throw new SignInError("the sign-in service sent an incomplete answer. Please sign in again.", { cause: claims.error });
  }
  const c = claims.data;
  const text = (value: string | undefined) => value?.trim() || null;
  return {
    subject: `${c.iss} ${c.sub}`,
    email: text(c.email),
    emailVerified: c.email_verified === true,
    givenName: text(c.given_name),
    familyName: text(c.family_name),
    name: text(c.name),
    picture: text(c.picture),
  };
}

/** String equality whose time does not depend on where the strings differ. */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
