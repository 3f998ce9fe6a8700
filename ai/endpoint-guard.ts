/**
 * Which model endpoints a person may point Fabled at, and how they are
 * fetched (DESIGN.md "Your own model (turn 3)", docs/decisions/0018): a
 * person's base URL is a request the deployment makes on their behalf, so it
 * must not reach inside the deployment (server-side request forgery, OWASP
 * SSRF Prevention Cheat Sheet).
 *
 * - `endpointProblem`: `https:` only in production; no IP literal in a
 *   private, loopback, link-local, CGNAT, unspecified or multicast range
 *   (IPv4, IPv6 and IPv4-mapped IPv6); no `localhost` name; not the site's
 *   own host. In development and tests `http://localhost` and
 *   `http://127.0.0.1` (any port) are allowed, so Ollama and llama.cpp work.
 *   Names are not resolved (Workers cannot; a Worker's `fetch` does not reach
 *   private networks anyway): the rules catch literals and the names that
 *   always mean this machine.
 * - `guardedFetch`: follows at most MAX_REDIRECTS redirects by hand, each
 *   target checked by the same rules (a public URL answering 307 → an
 *   internal address is refused) and none leaving the first URL's origin
 *   (the key and the prompt go only where the person pointed them), and
 *   caps the bytes read of the body (MAX_RESPONSE_BYTES).
 */

/** Redirects followed at most per request. */
export const MAX_REDIRECTS = 3;
/** Largest body read from a person's endpoint, bytes (a long streamed reply is ~100 kB of SSE). */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** What the rules need to know about the deployment. */
export interface EndpointPolicy {
  /** Development or tests: loopback http allowed. */
  development: boolean;
  /** The site's own host (`example.com`, `127.0.0.1:8787`), refused as an endpoint; null when unknown (the room). */
  siteHost: string | null;
}

/** A refused endpoint: `message` is for people ("Base URL …"). */
export class EndpointRefused extends Error {
  override readonly name = "EndpointRefused";
}

/**
 * The four bytes of an IPv4 host in any spelling the WHATWG URL Standard's
 * IPv4 parser accepts (§3.5 "IPv4 parser": 1–4 parts, each decimal, `0x`
 * hex or `0`-prefixed octal; the last part fills the remaining bytes, so
 * `2130706433` and `127.1` are 127.0.0.1); null for a host name. Some
 * runtimes hand such hosts over unnormalised, so they are read here.
 */
function ipv4Bytes(host: string): number[] | null {
  const parts = host.split(".");
  if (parts.at(-1) === "") parts.pop();
  if (parts.length === 0 || parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    let n: number;
    if (/^0x[0-9a-f]*$/i.test(part)) n = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) n = parseInt(part.slice(1), 8);
    else if (/^\d+$/.test(part)) n = Number(part);
    else return null;
    numbers.push(n);
  }
  const last = numbers.pop()!;
  if (numbers.some((n) => n > 255) || last >= 256 ** (4 - numbers.length)) return null;
  let value = numbers.reduce((sum, n, i) => sum + n * 256 ** (3 - i), 0) + last;
  const bytes = [0, 0, 0, 0];
  for (let i = 3; i >= 0; i--) {
    bytes[i] = value % 256;
    value = Math.floor(value / 256);
  }
  return bytes;
}

/** True for IPv4 ranges that are not the public internet (RFC 6890 special-purpose registry). */
function isInternalIpv4([a, b]: number[]): boolean {
  return (
    a === 0 || // "this network"
    a === 10 || // private
    a === 127 || // loopback
    (a === 100 && b! >= 64 && b! <= 127) || // CGNAT (RFC 6598)
    (a === 169 && b === 254) || // link-local (cloud metadata lives here)
    (a === 172 && b! >= 16 && b! <= 31) || // private
    (a === 192 && b === 168) || // private
    (a === 192 && b === 0) || // IETF protocol assignments
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a! >= 224 // multicast and reserved
  );
}

/** The 8 16-bit groups of an IPv6 literal (brackets removed); null when it is not one. */
function ipv6Groups(host: string): number[] | null {
  if (!host.includes(":")) return null;
  let text = host;
  // An embedded IPv4 tail (`::ffff:10.0.0.1`) becomes two groups.
  const tail = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (tail) {
    const v4 = ipv4Bytes(tail[1]!);
    if (!v4) return null;
    text = `${text.slice(0, tail.index)}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN)));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? head.length !== 8 : missing < 1) return null;
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...rest];
  return groups.some(Number.isNaN) ? null : groups;
}

function isInternalIpv6(g: number[]): boolean {
  const allZeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (allZeroTo(7) && (g[7] === 0 || g[7] === 1)) return true; // :: and ::1
  if (allZeroTo(5) && g[5] === 0xffff) return isInternalIpv4([g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255]); // IPv4-mapped
  if (allZeroTo(6)) return true; // IPv4-compatible (deprecated)
  if ((g[0]! & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
  if ((g[0]! & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((g[0]! & 0xff00) === 0xff00) return true; // multicast
  if (g[0] === 0x64 && g[1] === 0xff9b) return true; // NAT64 of any IPv4, internal included
  return false;
}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1"]);

/**
 * Why `raw` may not be a model endpoint under `policy`, in words for people;
 * null when it may. Also null-safe for any string (a malformed URL is a reason).
 */
export function endpointProblem(raw: string, policy: EndpointPolicy): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "Base URL must be a full URL such as https://openrouter.ai/api/v1";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "Base URL must start with https://";
  if (url.username || url.password) return "Base URL must not contain a user name or password; put the key in the API key field";
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  const bare = host.startsWith("[") ? host.slice(1, -1) : host;
  if (policy.siteHost) {
    const site = policy.siteHost.toLowerCase();
    if (url.host.toLowerCase() === site || (!policy.development && host === site.replace(/:\d+$/, ""))) {
      return "Base URL cannot be this site itself";
    }
  }
  if (policy.development && LOOPBACK_NAMES.has(bare)) return null;
  if (bare === "localhost" || bare.endsWith(".localhost")) return "Base URL cannot point at this server (localhost)";
  const v4 = ipv4Bytes(bare);
  const v6 = v4 ? null : ipv6Groups(bare);
  if ((v4 && isInternalIpv4(v4)) || (v6 && isInternalIpv6(v6))) {
    return "Base URL cannot be a private, loopback or link-local address";
  }
  if (url.protocol === "http:") {
    return policy.development
      ? "Base URL must start with https:// (http:// is allowed for localhost and 127.0.0.1 only)"
      : "Base URL must start with https://";
  }
  return null;
}

/** @throws EndpointRefused with endpointProblem's words when `raw` is refused. */
export function assertEndpointAllowed(raw: string, policy: EndpointPolicy): void {
  const problem = endpointProblem(raw, policy);
  if (problem) throw new EndpointRefused(problem);
}

/** A body that errors (TypeError "response too large") once more than `limit` bytes came through. */
function capped(body: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
  let seen = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > limit) controller.error(new TypeError(`response larger than ${limit} bytes`));
        else controller.enqueue(chunk);
      },
    }),
  );
}

/** The origin (`https://host:port`) of `url`, or null when it is not an absolute http(s) URL. */
export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.origin : null;
  } catch {
    return null;
  }
}

/** Whether `a` and `b` are URLs of one origin (scheme, host and port), the web's boundary for credentials. */
export function sameOrigin(a: string, b: string): boolean {
  const origin = originOf(a);
  return origin !== null && origin === originOf(b);
}

/** The words of a refused redirect to another origin (`target`: that origin). */
export function crossOriginRedirectMessage(target: string): string {
  return `The endpoint redirected to another address (${target}); Fabled sends your key and prompts only to the base URL's own address, so put that address in the base URL if you trust it`;
}

/**
 * A `fetch` for a person's endpoint: each redirect (at most MAX_REDIRECTS)
 * is checked by `policy` before it is followed, with the same method,
 * headers and body (a 303 becomes a GET); bodies are cut at `maxBytes` (the
 * read errors).
 *
 * A redirect to another origin than the first URL's is refused, not
 * followed: the request carries the person's key (`Authorization`) and, for
 * a chat, the whole prompt, both meant for the address the person saved.
 * The Fetch Standard drops `Authorization` on a cross-origin redirect
 * (§4.4 "HTTP-redirect fetch"); we refuse the hop instead, because the body
 * would still go and a keyless request would only fail later with a 401
 * that tells the person less (docs/decisions/0027).
 *
 * @throws EndpointRefused when the URL or a redirect target is refused, a
 *   redirect leaves the origin, or there are too many redirects; what
 *   `fetch` throws otherwise.
 */
export function guardedFetch(policy: EndpointPolicy, maxBytes = MAX_RESPONSE_BYTES, base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    let url = input instanceof Request ? input.url : String(input);
    const origin = originOf(url);
    let request: RequestInit = { ...init, redirect: "manual" };
    for (let hop = 0; ; hop++) {
      assertEndpointAllowed(url, policy);
      const response = await base(url, request);
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel().catch(() => {});
        if (hop >= MAX_REDIRECTS) throw new EndpointRefused(`The endpoint redirected more than ${MAX_REDIRECTS} times`);
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new EndpointRefused("The endpoint redirected to an address that is not a URL");
        }
        // Every hop passes the address rules first (a public host redirecting to 169.254.169.254 says so).
        assertEndpointAllowed(next.href, policy);
        if (next.origin !== origin) throw new EndpointRefused(crossOriginRedirectMessage(next.origin));
        url = next.href;
        if (response.status === 303) request = { ...request, method: "GET", body: undefined };
        continue;
      }
      if (!response.body) return response;
      return new Response(capped(response.body, maxBytes), { status: response.status, statusText: response.statusText, headers: response.headers });
    }
  };
}
