/**
 * A session's device in words, from the User-Agent it signed in with
 * (bowser's parser: the browser and operating system names as people know
 * them): "Chrome on Linux", "Safari on iOS", "Firefox on Windows".
 */
import Bowser from "bowser";

/**
 * "Browser on System", one of them alone when the other is unknown, the
 * agent's first product name when neither is known (a script: "curl"),
 * "Unknown device" without a user agent.
 */
export function deviceName(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name?.trim();
  const system = parsed.os.name?.trim();
  if (browser && system) return `${browser} on ${system}`;
  return browser || system || /^[\w.-]{1,40}/.exec(userAgent)?.[0] || "Unknown device";
}

/** The kind of device, for its icon: a phone or tablet, else a computer. */
export function deviceKind(userAgent: string | null): "mobile" | "desktop" {
  if (!userAgent) return "desktop";
  const type = Bowser.parse(userAgent).platform.type;
  return type === "mobile" || type === "tablet" ? "mobile" : "desktop";
}
