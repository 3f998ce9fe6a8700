/**
 * Whether a request was made to this machine itself. On Cloudflare a request
 * reaches the Worker only through one of its routes or domains, so a
 * loopback host means a local run (`wrangler dev`, tests).
 */

/** Host names that name this machine: `localhost`, `127.0.0.1` and `[::1]` (as `URL.hostname` writes it). */
const LOOPBACK_HOSTNAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** True when `url` (absolute) is on a loopback host, whatever its scheme and port. Throws on a relative URL. */
export function isLoopbackUrl(url: string): boolean {
  return LOOPBACK_HOSTNAMES.has(new URL(url).hostname);
}
