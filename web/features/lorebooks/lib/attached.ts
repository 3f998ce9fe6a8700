/**
 * The books attached to a character or a chat, as the studio and the chat
 * menu edit them (DESIGN.md turn 4 "Lorebooks"): an ordered list of ids,
 * the first applying first (the engine scans books in this order, so when
 * the lorebook budget runs short the earlier book's entries win; decision
 * 0033). Pure: no I/O.
 */
import { LOREBOOK_LIMITS } from "../../../../schema/lorebook/book.ts";

/** `ids` with `id` ticked (appended last, if there is room: LOREBOOK_LIMITS.attached) or unticked. */
export function toggleAttached(ids: readonly string[], id: string, on: boolean): string[] {
  if (!on) return ids.filter((other) => other !== id);
  if (ids.includes(id) || ids.length >= LOREBOOK_LIMITS.attached) return [...ids];
  return [...ids, id];
}

/** `ids` with `id` moved one place earlier (`by` -1) or later (`by` 1); unchanged at either end or when absent. */
export function moveAttached(ids: readonly string[], id: string, by: -1 | 1): string[] {
  const from = ids.indexOf(id);
  const to = from + by;
  if (from < 0 || to < 0 || to >= ids.length) return [...ids];
  const next = [...ids];
  [next[from], next[to]] = [next[to]!, next[from]!];
  return next;
}

/** Whether two attachments differ (order counts). */
export function attachedChanged(a: readonly string[], b: readonly string[]): boolean {
  return a.length !== b.length || a.some((id, index) => id !== b[index]);
}
