/**
 * Reading `Set-Cookie` the way a browser would, for tests that follow the
 * sign-in flow through several responses.
 */

export interface SetCookie {
  name: string;
  value: string;
  /** Attribute names in lower case (`httponly`, `secure`, `samesite`, `path`, `max-age`, `expires`). */
  attributes: Record<string, string>;
  /** True when the cookie is being removed (Max-Age=0 or an Expires in the past). */
  cleared: boolean;
}

/** Every `Set-Cookie` of a response, parsed. */
export function setCookies(res: Response): SetCookie[] {
  return res.headers.getSetCookie().map((line) => {
    const [pair = "", ...parts] = line.split(";").map((p) => p.trim());
    const eq = pair.indexOf("=");
    const attributes: Record<string, string> = {};
    for (const part of parts) {
      const i = part.indexOf("=");
      attributes[(i < 0 ? part : part.slice(0, i)).toLowerCase()] = i < 0 ? "" : part.slice(i + 1);
    }
    const cleared =
      attributes["max-age"] === "0" || (attributes.expires !== undefined && Date.parse(attributes.expires) <= Date.now());
    return { name: pair.slice(0, eq), value: pair.slice(eq + 1), attributes, cleared };
  });
}

/** The last `Set-Cookie` of a response for `name`, if any. */
export function setCookie(res: Response, name: string): SetCookie | undefined {
  return setCookies(res).findLast((c) => c.name === name);
}

/** A tiny cookie jar: applies responses' `Set-Cookie` and renders the `Cookie` header. */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  apply(res: Response): this {
    for (const cookie of setCookies(res)) {
      if (cookie.cleared) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return this;
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  clone(): CookieJar {
    const copy = new CookieJar();
    for (const [k, v] of this.cookies) copy.cookies.set(k, v);
    return copy;
  }
}
