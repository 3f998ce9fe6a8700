/**
 * Scroll restoration for React Router's declarative mode, as its data
 * router's `<ScrollRestoration>` did it (react-router `ScrollRestoration`,
 * lib/dom/lib.tsx): the browser's own restoration is off
 * (`history.scrollRestoration = "manual"`); each history entry's position
 * (px from the top) is kept by its `location.key`, in sessionStorage across
 * reloads; Back and Forward (a POP) go back to the entry's position, a link
 * to `#id` scrolls to that element, and any other navigation starts at the
 * top.
 */
import { useEffect, useLayoutEffect, useRef } from "react";
import { useLocation, useNavigationType } from "react-router";

/** sessionStorage key of the positions: `{[locationKey]: scrollY}`. */
const STORAGE_KEY = "fabled-scroll-positions";

/** At most this many entries are remembered (the oldest go first). */
const MAX_ENTRIES = 100;

function readPositions(): Record<string, number> {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "{}");
    return parsed && typeof parsed === "object" ? (parsed as Record<string, number>) : {};
  } catch {
    return {};
  }
}

export function useScrollRestoration(): void {
  const location = useLocation();
  const navigationType = useNavigationType();
  const positions = useRef<Record<string, number> | null>(null);
  const currentKey = useRef(location.key);
  positions.current ??= readPositions();

  useEffect(() => {
    window.history.scrollRestoration = "manual";
    // The position is recorded as the person scrolls, so it is the old page's when the next one renders.
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        const saved = positions.current!;
        delete saved[currentKey.current];
        saved[currentKey.current] = window.scrollY;
        const keys = Object.keys(saved);
        if (keys.length > MAX_ENTRIES) delete saved[keys[0]!];
      });
    };
    const onPageHide = () => {
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(positions.current));
      } catch {
        // Storage full or off: positions last as long as the page.
      }
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    window.addEventListener("pagehide", onPageHide);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("scroll", onScroll);
      window.removeEventListener("pagehide", onPageHide);
      window.history.scrollRestoration = "auto";
    };
  }, []);

  useLayoutEffect(() => {
    const firstRender = currentKey.current === location.key;
    currentKey.current = location.key;
    const saved = positions.current![location.key];
    if ((navigationType === "POP" || firstRender) && saved !== undefined) {
      window.scrollTo(0, saved);
      return;
    }
    if (location.hash) {
      const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
      if (target) {
        target.scrollIntoView();
        return;
      }
    }
    if (!firstRender) window.scrollTo(0, 0);
  }, [location.key, location.hash, navigationType]);
}
