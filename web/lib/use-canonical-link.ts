/**
 * Keeps the document's one `<link rel="canonical">` pointing at `href` while
 * the calling page is shown. The Worker may already have written one into the
 * shell (worker/lib/share-meta.ts, for link previews): that element is
 * updated in place rather than joined by a second one, and given back its
 * previous `href` when the page goes; one created here is removed.
 */
import { useEffect } from "react";

export function useCanonicalLink(href: string): void {
  useEffect(() => {
    const existing = document.querySelector<HTMLLinkElement>('link[rel="canonical"]');
    const link = existing ?? Object.assign(document.createElement("link"), { rel: "canonical" });
    const previous = existing?.getAttribute("href") ?? null;
    link.setAttribute("href", href);
    if (!existing) document.head.append(link);
    return () => {
      if (!existing) link.remove();
      else if (previous !== null) link.setAttribute("href", previous);
    };
  }, [href]);
}
