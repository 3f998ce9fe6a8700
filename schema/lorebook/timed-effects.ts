/**
 * Timed effects: `sticky`, `cooldown` and `delay`, counted in messages of
 * the branch (SillyTavern's `WorldInfoTimedEffects`: `checkTimedEffects`
 * before a scan, `setTimedEffects` after). The state is the room's to keep
 * between replies (TimedState), keyed by `${lorebookId}.${entryId}`.
 */
import type { LoreEntry, TimedState } from "./types.ts";

export interface TimedCheck {
  /** The state to scan with and to update (a copy of the one passed in). */
  state: TimedState;
  /** Entries kept in by a running sticky timer. */
  sticky: Set<string>;
  /** Entries kept out by a running cooldown (a sticky one still fires). */
  cooldown: Set<string>;
}

/**
 * The timers of `previous` at a chat of `chatLength` messages: a timer that
 * began at or after this length and is not protected is undone (a
 * regenerate or a rewind); one whose end is reached is over, and a sticky
 * that ends starts its entry's cooldown (protected); a timer of an entry
 * that lost the field is dropped. `entryOf` finds an entry by its key;
 * a timer of an entry no longer in the books runs out on its own.
 */
export function checkTimedEffects(previous: TimedState | null | undefined, entryOf: (key: string) => LoreEntry | undefined, chatLength: number): TimedCheck {
  const before = previous ?? { sticky: {}, cooldown: {}, matched: [] };
  // Kept state may come from an older room: a missing part reads as empty.
  const state: TimedState = { sticky: { ...before.sticky }, cooldown: { ...before.cooldown }, matched: [...(before.matched ?? [])] };
  const sticky = new Set<string>();
  const cooldown = new Set<string>();
  const check = (type: "sticky" | "cooldown", active: Set<string>) => {
    for (const [key, effect] of Object.entries(state[type])) {
      const entry = entryOf(key);
      // Not advanced (a regenerate or a rewind to before it started): the timer is undone.
      if (chatLength <= effect.start && !effect.protected) {
        delete state[type][key];
        continue;
      }
      if (!entry) {
        if (chatLength >= effect.end) delete state[type][key];
        continue;
      }
      if (!entry[type]) {
        delete state[type][key];
        continue;
      }
      if (chatLength >= effect.end) {
        delete state[type][key];
        if (type === "sticky" && entry.cooldown) {
          state.cooldown[key] = { start: chatLength, end: chatLength + entry.cooldown, protected: true };
          cooldown.add(key);
        }
        continue;
      }
      active.add(key);
    }
  };
  check("sticky", sticky);
  check("cooldown", cooldown);
  return { state, sticky, cooldown };
}

/** `delay`: the entry cannot fire before the chat has this many messages. */
export function isDelayed(entry: LoreEntry, chatLength: number): boolean {
  return !!entry.delay && chatLength < entry.delay;
}

/** The decorators that read whether an entry fired before on the branch (TimedState.matched). */
const READS_MATCHED = ["keep_activate_after_match", "dont_activate_after_match"];

/**
 * After a scan: every activated entry's timers start now (a running one is
 * kept as it is, as SillyTavern does), and an entry with
 * `@@keep_/dont_activate_after_match` is noted as matched on this branch
 * (only those read it: the state, kept after every reply for branches,
 * stays small). Changes `state`.
 */
export function setTimedEffects(state: TimedState, activated: readonly { key: string; entry: LoreEntry; decorators: ReadonlySet<string> }[], chatLength: number): void {
  const matched = new Set(state.matched);
  for (const { key, entry, decorators } of activated) {
    for (const type of ["sticky", "cooldown"] as const) {
      const length = entry[type];
      if (length && !state[type][key]) state[type][key] = { start: chatLength, end: chatLength + length };
    }
    if (!matched.has(key) && READS_MATCHED.some((name) => decorators.has(name))) {
      matched.add(key);
      state.matched.push(key);
    }
  }
}
