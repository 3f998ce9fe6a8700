/**
 * The room the chat's composer takes at the bottom of the window, kept as
 * the CSS variable `--composer-space` on the page's root so toasts
 * (components/ui/toast.tsx) sit above the composer rather than over it.
 */
import { useEffect, useRef } from "react";

/**
 * Keeps `--composer-space` on the page's root: from the top of the element
 * given the returned ref (the composer's area) to the bottom of the window,
 * px, so toasts (components/ui/toast.tsx) sit above it. Removed on leaving.
 */
export function useComposerSpace() {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const area = ref.current;
    if (!area) return;
    const root = document.documentElement;
    const measure = () => root.style.setProperty("--composer-space", `${Math.max(0, Math.round(window.innerHeight - area.getBoundingClientRect().top))}px`);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(area);
    window.addEventListener("resize", measure);
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", measure);
      root.style.removeProperty("--composer-space");
    };
  }, []);
  return ref;
}
