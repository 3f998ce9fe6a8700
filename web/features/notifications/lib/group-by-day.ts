/**
 * The notifications page groups by the day of each notification's newest
 * event, in the reader's time zone: "Today", "Yesterday", then the weekday
 * within the last week ("Monday"), then the date ("March 3, 2026").
 */
import { differenceInCalendarDays, format } from "date-fns";

export interface DayGroup<T> {
  /** yyyy-MM-dd in the reader's zone: a stable key. */
  day: string;
  label: string;
  items: T[];
}

/** Groups `items` (newest first) by day, keeping their order. `now` is passed in for tests. */
export function groupByDay<T extends { createdAt: string }>(items: T[], now: Date = new Date()): DayGroup<T>[] {
  const groups: DayGroup<T>[] = [];
  for (const item of items) {
    const at = new Date(item.createdAt);
    const day = format(at, "yyyy-MM-dd");
    let group = groups.at(-1);
    if (group?.day !== day) {
      group = { day, label: dayLabel(at, now), items: [] };
      groups.push(group);
    }
    group.items.push(item);
  }
  return groups;
}

export function dayLabel(at: Date, now: Date): string {
  const days = differenceInCalendarDays(now, at);
  if (days <= 0) return "Today";
  if (days === 1) return "Yesterday";
  if (days < 7) return format(at, "EEEE");
  return format(at, "MMMM d, yyyy");
}
