/**
 * Security headers for every response: the API's (hono secure-headers in
 * worker/app.ts) and the static assets' (written to `_headers` by the web build,
 * vite.config.ts), from this one definition.
 */

/** Content-Security-Policy directives: only our own scripts run; nothing may frame us. */
export const CONTENT_SECURITY_POLICY: Record<string, string[]> = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", "data:", "blob:", "https:"],
  fontSrc: ["'self'", "data:"],
  connectSrc: ["'self'"],
  // Replies read aloud play from a blob: URL of the fetched audio (web/features/chat/lib/reply-player.ts).
  mediaSrc: ["'self'", "blob:"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

export const REFERRER_POLICY = "strict-origin-when-cross-origin";

const kebab = (name: string) => name.replace(/[A-Z]/g, (ch) => `-${ch.toLowerCase()}`);

/** The policy as a header value. */
export function contentSecurityPolicyHeader(): string {
  return Object.entries(CONTENT_SECURITY_POLICY)
    .map(([directive, sources]) => `${kebab(directive)} ${sources.join(" ")}`)
    .join("; ");
}

/** Headers for static assets, as name → value. */
export function staticSecurityHeaders(): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicyHeader(),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": REFERRER_POLICY,
    "Strict-Transport-Security": "max-age=15552000; includeSubDomains",
    "Cross-Origin-Opener-Policy": "same-origin",
    // The microphone for our own pages only: the chat composer records spoken messages (DESIGN.md "Voices").
    "Permissions-Policy": "camera=(), microphone=(self), geolocation=()",
  };
}
