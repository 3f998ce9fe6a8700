/**
 * Which model endpoints a person may point Fabled at, and how they are
 * fetched (DESIGN.md "Your own model (turn 3)", docs/decisions/0018): a
 * person's base URL is a request the deployment makes on their behalf, so it
 * must not reach inside the deployment (server-side request forgery, OWASP
 * SSRF Prevention Cheat Sheet).
 *
 * - `endpointProblem`: `https:` only in production; no IP literal in a
 *   private, loopback, link-local, CGNAT, unspecified, documentation,
 *   reserved or multicast IPv4 range, in any spelling; no IPv6 literal
 *   outside plain global unicast (so no IPv4 inside IPv6: mapped,
 *   compatible, NAT64, 6to4, Teredo); no `localhost` name and no name that
 *   spells an internal IPv4 address (`127.0.0.1.nip.io`); not the site's
 *   own host, in development too. In development and tests
 *   `http://localhost` and `http://127.0.0.1` (any other port) are allowed,
 *   so Ollama and llama.cpp work.
 *   Names are not resolved: a Worker has no DNS API, and a look-up over
 *   DNS-over-HTTPS before `fetch` would be a check at one moment and a
 *   connection at another (DNS rebinding answers the two differently), while
 *   Cloudflare's own `fetch` from a deployed Worker reaches only the public
 *   internet (README "Your own model"; docs/decisions/0027).
 * - `guardedFetch`: follows at most MAX_REDIRECTS redirects by hand, each
 *   target checked by the same rules (a public URL answering 307 → an
 *   internal address is refused) and none leaving the first URL's origin
 *   (the key and the prompt go only where the person pointed them), and
 *   caps the bytes read of the body (MAX_RESPONSE_BYTES).
 */
import { originOf } from "../schema/model-connections.ts";

/** Redirects followed at most per request. */
export const MAX_REDIRECTS = 3;
/** Largest body read from a person's endpoint, bytes (a long streamed reply is ~100 kB of SSE). */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** What the rules need to know about the deployment. */
export interface EndpointPolicy {
  /** Development or tests: loopback http allowed. */
  development: boolean;
  /**
   * The site itself, refused as an endpoint: its origin (`https://example.com`,
   * `http://localhost:8787`) or just its host (`example.com`, `127.0.0.1:8787`,
   * read as http); null when unknown (the room, whose saved URLs were checked
   * when saved and whose redirects stay on their origin).
   */
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

/**
 * True for IPv4 ranges that are not the public internet (IANA IPv4
 * Special-Purpose Address Registry, RFC 6890 and its updates).
 */
function isInternalIpv4([a, b, c]: number[]): boolean {
  return (
    a === 0 || // "this network"
    a === 10 || // private
    a === 127 || // loopback
    (a === 100 && b! >= 64 && b! <= 127) || // CGNAT (RFC 6598)
    (a === 169 && b === 254) || // link-local (cloud metadata lives here)
    (a === 172 && b! >= 16 && b! <= 31) || // private
    (a === 192 && b === 168) || // private
    (a === 192 && b === 0 && (c === 0 || c === 2)) || // IETF protocol assignments, TEST-NET-1
    (a === 192 && b === 88 && c === 99) || // 6to4 relay anycast (deprecated)
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    (a === 198 && b === 51 && c === 100) || // TEST-NET-2
    (a === 203 && b === 0 && c === 113) || // TEST-NET-3
    a! >= 224 // multicast, reserved and broadcast
  );
}

/**
 * The 8 16-bit groups of an IPv6 literal (brackets removed); null when it is
 * not one. Reads every spelling RFC 4291 §2.2 allows: `::` anywhere, leading
 * zeros, and a dotted IPv4 tail (`::ffff:127.0.0.1`, `0:0:0:0:0:ffff:…`,
 * `::127.0.0.1`), though the URL parser hands over the compressed hex form.
 */
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

/**
 * True for every IPv6 address that is not plain global unicast. An allow
 * list, not a deny list, so no spelling of an IPv4 address inside IPv6 is
 * forgotten: only 2000::/3 is the public IPv6 internet (RFC 4291 §2.4), which
 * leaves out ::/128, ::1, the IPv4-mapped ::ffff:0:0/96 and IPv4-translated
 * ::ffff:0:0:0/96, the IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::/96 and
 * 64:ff9b:1::/48, discard-only 100::/64, unique-local fc00::/7, link-local
 * fe80::/10 and multicast ff00::/8. Inside 2000::/3 the IANA IPv6
 * Special-Purpose Address Registry's ranges that carry IPv4 or reach no
 * public host are refused too: 2001::/23 (IETF protocol assignments, among
 * them Teredo 2001::/32, which embeds an IPv4 address, and benchmarking
 * 2001:2::/48), documentation 2001:db8::/32 and 3fff::/20, and 6to4
 * 2002::/16 (an IPv4 address in bits 16–47).
 */
function isInternalIpv6(g: number[]): boolean {
  if ((g[0]! & 0xe000) !== 0x2000) return true;
  if (g[0] === 0x2001 && (g[1]! < 0x200 || g[1] === 0xdb8)) return true;
  if (g[0] === 0x2002) return true;
  if (g[0] === 0x3fff && g[1]! < 0x1000) return true;
  return false;
}

/**
 * An internal IPv4 address written into a host name (`127.0.0.1.nip.io`,
 * `10-0-0-1.sslip.io`): wildcard DNS services answer such names with that
 * address. Names are not resolved here (see the module docstring), so this
 * catches only the well-known trick, not every name that points inside.
 */
function embedsInternalIpv4(host: string): boolean {
  for (const match of host.matchAll(/(?:^|[.-])(\d{1,3})[.-](\d{1,3})[.-](\d{1,3})[.-](\d{1,3})(?=[.-]|$)/g)) {
    const bytes = match.slice(1, 5).map(Number);
    if (bytes.every((n) => n <= 255) && isInternalIpv4(bytes)) return true;
  }
  return false;
}

/** Host names that are always this machine (RFC 6761 §6.3). */
function isLocalhostName(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost");
}

/** Whether `host` (lower case, no brackets) always means this machine: a localhost name or a loopback literal. */
function isLoopbackHost(host: string): boolean {
  if (isLocalhostName(host)) return true;
  const v4 = ipv4Bytes(host);
  if (v4) return v4[0] === 127;
  const v6 = ipv6Groups(host);
  if (!v6) return false;
  const zeros = (n: number) => v6.slice(0, n).every((x) => x === 0);
  return (zeros(7) && v6[7] === 1) || (zeros(5) && v6[5] === 0xffff && v6[6]! >> 8 === 127);
}

/**
 * Whether `url` is the site itself (`siteHost`: its host with any port). In
 * production: the site's host name on any port. In development the same,
 * except that on a loopback site other ports are other programs (Ollama on
 * localhost:11434 beside the site on localhost:8787), so there the site's
 * port on any spelling of loopback (`127.0.0.1`, `[::1]`, `localhost`) is it.
 */
function isSiteItself(url: URL, host: string, siteHost: string): boolean {
  let site: URL;
  try {
    site = new URL(siteHost.includes("://") ? siteHost : `http://${siteHost}`);
  } catch {
    return false;
  }
  const siteName = site.hostname.toLowerCase().replace(/\.$/, "").replace(/^\[|\]$/g, "");
  if (!isLoopbackHost(siteName)) return host === siteName;
  return isLoopbackHost(host) && effectivePort(url) === effectivePort(site);
}

/** The TCP port a URL connects to (its scheme's default when none is written). */
function effectivePort(url: URL): string {
  return url.port || (url.protocol === "https:" ? "443" : "80");
}

/** The host as written in `raw` (before the URL parser normalises it), lower case, without port or trailing dot. */
function typedHost(raw: string): string {
  const authority = /^\s*[a-z][a-z0-9+.-]*:\/\/([^/?#\\]*)/i.exec(raw)?.[1] ?? "";
  return authority
    .replace(/^.*@/, "")
    .replace(/:\d*$/, "")
    .toLowerCase()
    .replace(/\.$/, "");
}

const PRIVATE_ADDRESS = "Base URL cannot be a private, loopback or link-local address";

/**
 * Why `raw` may not be a model endpoint under `policy`, in words for people;
 * null when it may. Also null-safe for any string (a malformed URL is a reason).
 * IPv4 hosts arrive normalised by the WHATWG URL parser (`2130706433`,
 * `0177.0.0.1`, `0x7f.1` and `127.1` are all `127.0.0.1` by then; IPv6 in
 * compressed hex), and are read again here in case a runtime does not.
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
  if (policy.siteHost && isSiteItself(url, bare, policy.siteHost.toLowerCase())) return "Base URL cannot be this site itself";
  // Development allows loopback as people write it; `0x7f.1` and the like are an attacker's spellings.
  if (policy.development && (bare === "localhost" || bare === "127.0.0.1") && typedHost(raw) === bare) return null;
  if (isLocalhostName(bare)) return "Base URL cannot point at this server (localhost)";
  const v4 = ipv4Bytes(bare);
  const v6 = v4 ? null : ipv6Groups(bare);
  if (v4 && isInternalIpv4(v4)) return PRIVATE_ADDRESS;
  if (bare.includes(":") && (!v6 || isInternalIpv6(v6))) return PRIVATE_ADDRESS;
  if (!v4 && !v6 && embedsInternalIpv4(bare)) return PRIVATE_ADDRESS;
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
