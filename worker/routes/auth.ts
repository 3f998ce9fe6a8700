/**
 * Sign-in, sign-out and the current user (SPEC.md §2 browser navigations,
 * §7 `GET /api/auth/user`; issue "Accounts"):
 * - `GET /api/login` starts the OpenID Connect flow (worker/lib/oidc.ts), or in
 *   local development without a provider serves the local sign-in form;
 * - `POST /api/login/dev` is that form's target (DESIGN.md "Local development");
 * - `GET /api/callback` finishes the flow and starts a session;
 * - `GET /api/logout` ends the session when the navigation started on our own
 *   site or in the address bar (`Sec-Fetch-Site: same-origin` or `none`); any
 *   other GET (a link or redirect from another site, or a client that sends
 *   no `Sec-Fetch-Site`) gets a small confirm page whose form POSTs instead,
 *   so another website cannot sign a person out;
 * - `POST /api/logout` ends the session (the `sameOrigin` CSRF guard applies);
 * - `GET /api/auth/user` is the signed-in person or 401.
 *
 * While the browser is at the provider, `state`, `nonce`, the PKCE code
 * verifier and the optional `returnTo` wait in short-lived HttpOnly,
 * SameSite=Lax cookies (Lax: they must come back on the provider's top-level
 * redirect to the callback).
 */
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { html, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { z } from "zod";
import type { CurrentUser } from "../../schema/api.ts";
import type { AppEnv } from "../env.ts";
import { ApiError, notFound, validationFailed } from "../lib/errors.ts";
import { SignInError, completeAuthorization, createAuthorization, oidcConfig, timingSafeEqual } from "../lib/oidc.ts";
import {
  clearSessionCookie,
  createSession,
  invalidateSessionToken,
  isSecureRequest,
  readSessionCookie,
  setSessionCookie,
} from "../lib/sessions.ts";
import { findOrCreateDevUser, signInWithIdentity } from "../lib/users.ts";
import { requireUser } from "../middleware/session.ts";

/** Lifetime of the cookies that carry a sign-in through the provider, s (10 minutes). */
const OAUTH_COOKIE_MAX_AGE_S = 10 * 60;
/** Largest accepted local sign-in body, bytes. */
const DEV_SIGN_IN_MAX_BYTES = 8 * 1024;

type OAuthCookie = "state" | "nonce" | "verifier" | "return_to";
const OAUTH_COOKIES: OAuthCookie[] = ["state", "nonce", "verifier", "return_to"];

/** `__Host-` names (Secure, Path=/, no Domain) everywhere but plain-http localhost, like the session cookie. */
function oauthCookieName(url: string, which: OAuthCookie): string {
  return `${isSecureRequest(url) ? "__Host-" : ""}fabled_oauth_${which}`;
}

function setOAuthCookie(c: Context, which: OAuthCookie, value: string): void {
  setCookie(c, oauthCookieName(c.req.url, which), value, {
    httpOnly: true,
    secure: isSecureRequest(c.req.url),
    sameSite: "Lax",
    path: "/",
    maxAge: OAUTH_COOKIE_MAX_AGE_S,
  });
}

function clearOAuthCookie(c: Context, which: OAuthCookie): void {
  deleteCookie(c, oauthCookieName(c.req.url, which), {
    httpOnly: true,
    secure: isSecureRequest(c.req.url),
    sameSite: "Lax",
    path: "/",
  });
}

/**
 * `value` when it is a path on our own site to return to after sign-in, else
 * null: it must start with exactly one "/" (not "//", which browsers read as
 * another host), contain no backslash (browsers read "/\" as "//") and no
 * control characters (URL parsers drop tabs and newlines, so "/\t/x" would
 * become "//x"), and must still resolve to our origin.
 */
export function safeReturnTo(value: string | null | undefined): string | null {
  if (!value || value.length > 2048) return null;
  if (!value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return null;
  if (/[\u0000-\u001f\u007f]/.test(value)) return null;
  const base = "https://fabled.invalid";
  const url = new URL(value, base);
  if (url.origin !== base) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The callback URL registered at the provider: `${origin}/api/callback`. */
function redirectUri(c: Context): string {
  return `${new URL(c.req.url).origin}/api/callback`;
}

/** The local sign-in exists only in development and only while no provider is configured. */
function devSignInEnabled(env: Env): boolean {
  return env.ENVIRONMENT === "development" && oidcConfig(env) === null;
}

/** Starts a session for `userId`, ending the one this browser had (no session fixation). */
async function startSession(c: Context<AppEnv>, userId: string): Promise<void> {
  const previous = readSessionCookie(c);
  if (previous) await invalidateSessionToken(c.env.DB, previous);
  const { token, expire } = await createSession(c.env.DB, userId, Date.now(), c.req.header("user-agent") ?? null);
  setSessionCookie(c, token, expire);
}

const signInFailed = (reason: string) => new ApiError("validation_failed", `Sign-in failed: ${reason}`);

/** Provider `error` codes (RFC 6749 §4.1.2.1) people can be told about in words. */
function providerErrorReason(code: string): string {
  if (code === "access_denied") return "the sign-in was cancelled or refused at the sign-in service.";
  if (code === "temporarily_unavailable" || code === "server_error") {
    return "the sign-in service is having trouble. Please try again in a moment.";
  }
  return "the sign-in service could not complete the sign-in. Please try again.";
}

const devSignInSchema = z.object({
  email: z
    .string({ error: "E-mail is required" })
    .trim()
    .max(254, "E-mail is too long")
    .pipe(z.email("Enter a valid e-mail address")),
  firstName: z
    .string({ error: "First name is required" })
    .trim()
    .min(1, "First name is required")
    .max(100, "First name is too long"),
  returnTo: z.string().optional(),
});

/**
 * The style of the Worker's own small pages (local sign-in, logout confirm),
 * in the app's look as far as a page without the app's stylesheet can go:
 * the dark theme's colours (web/styles.css `@theme`), its font stack, the
 * violet-to-pink gradient of its primary buttons and logo, and a glow like
 * the character page's. Inline CSS only — the CSP allows inline styles but no
 * inline script. Narrow screens get the card edge to edge with 1rem margins.
 */
const PAGE_STYLE = raw(`
      :root { color-scheme: dark; font-family: "Inter", ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto,
        "Helvetica Neue", Arial, "Noto Sans", sans-serif; -webkit-font-smoothing: antialiased; }
      * { box-sizing: border-box; }
      body { margin: 0; min-height: 100vh; min-height: 100dvh; display: flex; flex-direction: column; background: #0b0a10;
        color: #f4f3f8; background-image: radial-gradient(60rem 28rem at 50% -6rem, rgb(139 92 246 / 0.22), transparent 70%),
        radial-gradient(40rem 20rem at 85% 0, rgb(219 39 119 / 0.12), transparent 70%); background-repeat: no-repeat; }
      header { display: flex; align-items: center; height: 4rem; padding: 0 1rem; border-bottom: 1px solid #2a2736;
        background: rgb(11 10 16 / 0.7); }
      .brand { display: inline-flex; align-items: center; gap: 0.5rem; font-size: 1.25rem; font-weight: 700;
        letter-spacing: -0.025em; text-decoration: none; border-radius: 0.5rem; }
      .brand svg { width: 2rem; height: 2rem; flex-shrink: 0; }
      .brand span { background: linear-gradient(to right, #c4b5fd, #f9a8d4); -webkit-background-clip: text; background-clip: text;
        color: transparent; }
      main { flex: 1; display: flex; flex-direction: column; align-items: center; justify-content: center; padding: 2rem 1rem 3rem; }
      .card { width: 100%; max-width: 26rem; padding: 2rem; border: 1px solid #2a2736; border-radius: 1rem; background: #14121c;
        box-shadow: 0 25px 50px -12px rgb(124 58 237 / 0.18); }
      .badge { display: inline-block; margin: 0 0 1rem; padding: 0.125rem 0.625rem; border: 1px solid #2f2b3d; border-radius: 999px;
        background: #1c1a26; color: #a8a5b8; font-size: 0.75rem; font-weight: 600; letter-spacing: 0.04em; text-transform: uppercase; }
      h1 { margin: 0 0 0.375rem; font-size: 1.5rem; line-height: 1.25; font-weight: 700; letter-spacing: -0.025em; }
      p { margin: 0 0 1.5rem; color: #a8a5b8; line-height: 1.5; font-size: 0.9375rem; }
      label { display: block; margin: 1rem 0 0.375rem; font-weight: 600; font-size: 0.875rem; }
      input { width: 100%; height: 2.75rem; padding: 0 0.75rem; font: inherit; font-size: 1rem; border-radius: 0.625rem;
        border: 1px solid #2f2b3d; background: #1c1a26; color: #f4f3f8; }
      input::placeholder { color: #7d7a8c; }
      input:hover { border-color: #3d3850; }
      a:focus-visible, input:focus-visible, button:focus-visible { outline: 2px solid #a78bfa; outline-offset: 2px; }
      button { margin-top: 1.5rem; width: 100%; height: 2.75rem; font: inherit; font-weight: 600; border: 0; border-radius: 0.625rem;
        background: linear-gradient(to right, #7c3aed, #db2777); color: #fff; cursor: pointer;
        box-shadow: 0 10px 15px -3px rgb(139 92 246 / 0.2); }
      button:hover { background: linear-gradient(to right, #8b5cf6, #db2777); }
      .error { margin: 0 0 1rem; padding: 0.75rem 1rem; border: 1px solid #7f1d1d; border-radius: 0.625rem; background: #2a0f14;
        color: #fecaca; font-size: 0.9375rem; }
      .actions { display: flex; gap: 1rem; align-items: center; margin-top: 1.5rem; }
      .actions form { flex: 1; }
      .actions button { margin-top: 0; }
      a { color: #c4b5fd; }
      .back { display: inline-flex; align-items: center; gap: 0.375rem; margin-top: 1.5rem; color: #a8a5b8; font-size: 0.875rem;
        text-decoration: none; border-radius: 0.375rem; }
      .back:hover { color: #f4f3f8; }
      .back svg { width: 1rem; height: 1rem; }
      @media (max-width: 480px) { .card { padding: 1.5rem 1.25rem; } main { justify-content: flex-start; padding-top: 2rem; } }
    `);

/** The Fabled logo (web/public/favicon.svg) and wordmark linking home, as in the app's header (web/components/wordmark.tsx). */
const BRAND = raw(`<a class="brand" href="/">
        <svg viewBox="0 0 32 32" aria-hidden="true"><defs><linearGradient id="brand-gradient" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stop-color="#8b5cf6" /><stop offset="1" stop-color="#ec4899" /></linearGradient></defs>
          <rect width="32" height="32" rx="9" fill="url(#brand-gradient)" />
          <path d="M11 23V9h10.5M11 16h8" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round" />
        </svg>
        <span>Fabled</span>
      </a>`);

/** A left arrow for "Back to Home" (lucide's arrow-left). */
const BACK_ARROW = raw(
  `<svg viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="m12 19-7-7 7-7" /><path d="M19 12H5" /></svg>`,
);

/** One of the Worker's small pages: the header with the wordmark, then `body` in a card. */
function smallPage(title: string, body: HtmlEscapedString | Promise<HtmlEscapedString>) {
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="dark" />
    <meta name="robots" content="noindex" />
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    <title>${title}</title>
    <style>${PAGE_STYLE}</style>
  </head>
  <body>
    <header>
      ${BRAND}
    </header>
    <main>
${body}
    </main>
  </body>
</html>`;
}

/**
 * The local sign-in form: plain HTML, no scripts (the CSP allows only our own
 * bundle), inline styles only; a link back to Home below it.
 */
function devSignInPage(values: { email?: string; firstName?: string; returnTo: string | null; error?: string }) {
  return smallPage(
    "Sign in · Fabled (local)",
    html`      <div class="card">
        <span class="badge">Local development</span>
        <h1>Sign in to Fabled</h1>
        <p>Enter any e-mail address and a first name. A new address creates an account.</p>
        ${values.error ? html`<div class="error" role="alert" id="sign-in-error">${values.error}</div>` : ""}
        <form method="post" action="/api/login/dev">
          <label for="email">E-mail</label>
          <input id="email" name="email" type="email" autocomplete="email" required maxlength="254"
            placeholder="you@example.com" value="${values.email ?? ""}" ${values.error ? html`aria-describedby="sign-in-error"` : ""} />
          <label for="firstName">First name</label>
          <input id="firstName" name="firstName" type="text" autocomplete="given-name" required maxlength="100"
            value="${values.firstName ?? ""}" />
          ${values.returnTo ? html`<input type="hidden" name="returnTo" value="${values.returnTo}" />` : ""}
          <button type="submit">Sign in</button>
        </form>
      </div>
      <a class="back" href="/">${BACK_ARROW} Back to Home</a>`,
  );
}

/**
 * The page a cross-site `GET /api/logout` answers: one form that POSTs to
 * `/api/logout` and a link back home. No script (the CSP forbids inline
 * script), inline styles only; the security headers forbid framing, so the
 * button cannot be clickjacked.
 */
function logoutConfirmPage() {
  return smallPage(
    "Log out · Fabled",
    html`      <div class="card">
        <h1>Log out of Fabled?</h1>
        <p>A link from another website asked to log you out. Log out only if you meant to.</p>
        <div class="actions">
          <form method="post" action="/api/logout">
            <button type="submit">Log out</button>
          </form>
          <a href="/">Stay signed in</a>
        </div>
      </div>`,
  );
}

/** Ends this browser's session (if any) and clears its cookie. */
async function endSession(c: Context<AppEnv>): Promise<void> {
  const token = readSessionCookie(c);
  if (token) await invalidateSessionToken(c.env.DB, token);
  clearSessionCookie(c);
}

/**
 * `Sec-Fetch-Site` values of a GET that a person started themselves: a link
 * on our own pages (`same-origin`) or typed, bookmarked (`none`).
 */
const OWN_NAVIGATION = new Set(["same-origin", "none"]);

export const authRoutes = new Hono<AppEnv>()
  .get("/login", async (c) => {
    c.header("Cache-Control", "no-store");
    const returnTo = safeReturnTo(c.req.query("returnTo"));
    const config = oidcConfig(c.env);
    if (!config) {
      if (devSignInEnabled(c.env)) return c.html(devSignInPage({ returnTo }), 200);
      throw new ApiError("unavailable", "Sign-in is not configured");
    }
    let authorization;
    try {
      authorization = await createAuthorization(config, redirectUri(c));
    } catch (err) {
      console.warn("sign-in could not start:", err instanceof Error ? (err.cause ?? err) : err);
      throw new ApiError("unavailable", "Sign-in is temporarily unavailable. Please try again in a moment.");
    }
    setOAuthCookie(c, "state", authorization.state);
    setOAuthCookie(c, "nonce", authorization.nonce);
    setOAuthCookie(c, "verifier", authorization.codeVerifier);
    if (returnTo) setOAuthCookie(c, "return_to", returnTo);
    else clearOAuthCookie(c, "return_to");
    return c.redirect(authorization.url.toString(), 302);
  })

  .post("/login/dev", bodyLimit({ maxSize: DEV_SIGN_IN_MAX_BYTES }), async (c) => {
    if (!devSignInEnabled(c.env)) throw notFound();
    const contentType = c.req.header("content-type") ?? "";
    const isJson = /^application\/json\b/i.test(contentType);
    let body: unknown;
    if (isJson) {
      body = await c.req.json().catch(() => {
        throw new ApiError("validation_failed", "Malformed request body");
      });
    } else if (/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(contentType)) {
      // A multipart body without its boundary, or a broken one, makes the runtime throw a TypeError: the client's fault.
      body = await c.req.parseBody().catch(() => {
        throw new ApiError("validation_failed", "Malformed form data");
      });
    } else {
      throw new ApiError("unsupported_media_type", "Send the sign-in as a form or as JSON");
    }
    const parsed = devSignInSchema.safeParse(body);
    if (!parsed.success) {
      if (isJson) throw validationFailed(parsed.error);
      // A person at the form gets the form back with the reason.
      const raw = (body ?? {}) as Record<string, unknown>;
      const text = (v: unknown) => (typeof v === "string" ? v : undefined);
      c.header("Cache-Control", "no-store");
      return c.html(
        devSignInPage({
          email: text(raw.email),
          firstName: text(raw.firstName),
          returnTo: safeReturnTo(text(raw.returnTo)),
          error: parsed.error.issues[0]?.message ?? "Check the form and try again",
        }),
        400,
      );
    }
    const user = await findOrCreateDevUser(c.env.DB, parsed.data);
    await startSession(c, user.id);
    if (isJson) return c.json(user, 200);
    return c.redirect(safeReturnTo(parsed.data.returnTo) ?? "/", 303);
  })

  .get("/callback", async (c) => {
    c.header("Cache-Control", "no-store");
    const config = oidcConfig(c.env);
    if (!config) throw new ApiError("unavailable", "Sign-in is not configured");

    const cookie = (which: OAuthCookie) => getCookie(c, oauthCookieName(c.req.url, which));
    const saved = { state: cookie("state"), nonce: cookie("nonce"), verifier: cookie("verifier"), returnTo: cookie("return_to") };
    // Whatever happens next, this sign-in attempt is over.
    for (const which of OAUTH_COOKIES) clearOAuthCookie(c, which);

    const { state, code, error } = c.req.query();
    if (error) throw signInFailed(providerErrorReason(error));
    if (!saved.state || !state || !timingSafeEqual(saved.state, state)) {
      throw signInFailed("the sign-in did not start in this browser or took too long. Please sign in again.");
    }
    if (!code || !saved.nonce || !saved.verifier) {
      throw signInFailed("the sign-in answer is incomplete. Please sign in again.");
    }

    let claims;
    try {
      claims = await completeAuthorization(config, redirectUri(c), code, saved.verifier, saved.nonce);
    } catch (err) {
      if (!(err instanceof SignInError)) throw err;
      console.warn(err.message, err.cause instanceof Error ? err.cause.message : (err.cause ?? ""));
      throw signInFailed(err.reason);
    }

    const user = await signInWithIdentity(c.env.DB, claims);
    await startSession(c, user.id);
    return c.redirect(safeReturnTo(saved.returnTo) ?? "/", 302);
  })

  .get("/logout", async (c) => {
    c.header("Cache-Control", "no-store");
    const site = c.req.header("sec-fetch-site");
    // Another site's link, or no way to tell: ask (a visitor has nothing to lose).
    if (c.get("user") && (site === undefined || !OWN_NAVIGATION.has(site))) return c.html(logoutConfirmPage(), 200);
    await endSession(c);
    return c.redirect("/", 302);
  })

  // Cross-site POSTs never get here (sameOrigin in worker/app.ts answers 403).
  .post("/logout", async (c) => {
    c.header("Cache-Control", "no-store");
    await endSession(c);
    return c.redirect("/", 303);
  })

  .get("/auth/user", requireUser, (c) => {
    c.header("Cache-Control", "no-store");
    return c.json(c.var.user satisfies CurrentUser, 200);
  });
