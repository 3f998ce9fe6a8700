/**
 * A streaming reply's text shown as a steady flow rather than in jumps.
 *
 * Deltas arrive in bursts: the room sends what the model wrote every 50 ms,
 * every 100 ms in a room of several sockets (durable-objects/room/
 * reply-writing.ts), and a hosted model itself often sends several words at
 * once. Showing each burst at once makes the text jump a few words at a
 * time.
 * Instead the shown text catches up with what arrived a little on every
 * animation frame: the gap closes at the rate that would close it in
 * REVEAL_CATCH_UP_MS (ms), so the text flows at about the speed it arrives
 * and never lags it by much more than that. Text that was already there
 * when the message appeared (a reload, a reconnect mid-reply) shows at
 * once; the whole text shows at once when the reply ends, and with
 * `prefers-reduced-motion`.
 */
import { useEffect, useRef, useState } from "react";

/** The time constant of the catch-up, ms. */
export const REVEAL_CATCH_UP_MS = 150;

/**
 * How many characters to show `elapsedMs` ms after `shown` were shown, of
 * `target` arrived: closes the gap by elapsedMs / REVEAL_CATCH_UP_MS of it,
 * at least one character; never past `target`, never back (a shorter text
 * than shown shows whole).
 */
export function revealStep(shown: number, target: number, elapsedMs: number): number {
  if (shown >= target) return target;
  const step = Math.max(1, Math.round(((target - shown) * Math.max(0, elapsedMs)) / REVEAL_CATCH_UP_MS));
  return Math.min(target, shown + step);
}

/** `text` cut to `length` characters, never between the two halves of a surrogate pair (an emoji). */
export function revealedText(text: string, length: number): string {
  if (length >= text.length) return text;
  const code = text.charCodeAt(length - 1);
  // A high surrogate last: its pair goes with it.
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length + 1 : length);
}

function prefersReducedMotion(): boolean {
  return typeof window !== "undefined" && typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * The part of `text` to show: all of it unless `streaming`; while streaming,
 * what the catch-up reached (revealStep, one step per animation frame).
 */
export function useSmoothReveal(text: string, streaming: boolean): string {
  // How much shows, kept across renders (what was there when the message appeared shows at once);
  // the state only asks for the next render.
  const shown = useRef(text.length);
  const [, setFrame] = useState(0);
  const target = text.length;
  const smooth = streaming && !prefersReducedMotion();

  useEffect(() => {
    if (!smooth || shown.current >= target) return;
    let frame = 0;
    let last = performance.now();
    const tick = (now: number) => {
      shown.current = revealStep(shown.current, target, now - last);
      last = now;
      setFrame((n) => n + 1);
      if (shown.current < target) frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [smooth, target]);

  if (!smooth) {
    // Ended (or never smoothed): all of it, and a continue later flows on from here.
    shown.current = target;
    return text;
  }
  return revealedText(text, Math.min(shown.current, target));
}
