/**
 * Reordering a lorebook's entries on its page ("drag to reorder", issue 36):
 * the list's order is the entries' display order, kept as SillyTavern's
 * `displayIndex` on export (schema/lorebook/book.ts). It is not the entries'
 * insertion `order`, which the engine sorts by.
 */

/** `list` with the item at `from` moved to `to` (both 0-based; `to` clamped into the list); the same list when either is out of range or equal. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const target = Math.max(0, Math.min(list.length - 1, to));
  if (!Number.isInteger(from) || from < 0 || from >= list.length || from === target) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(target, 0, item!);
  return next;
}
