import { describe, expect, it } from "vitest";
import { groupByDay } from "./group-by-day.ts";

const at = (y: number, m: number, d: number, h = 12) => new Date(y, m - 1, d, h).toISOString();

describe("groupByDay", () => {
  const now = new Date(2026, 10, 27, 18); // Friday, November 27, 2026, 18:00 local
  it("labels today, yesterday, this week's weekdays and older dates, keeping the order", () => {
    const items = [at(2026, 11, 27, 17), at(2026, 11, 27, 1), at(2026, 11, 26), at(2026, 11, 23), at(2026, 11, 20), at(2025, 1, 2)].map((createdAt, id) => ({ id, createdAt }));
    const groups = groupByDay(items, now);
    expect(groups.map((g) => [g.label, g.items.map((i) => i.id)])).toEqual([
      ["Today", [0, 1]],
      ["Yesterday", [2]],
      ["Monday", [3]],
      ["November 20, 2026", [4]],
      ["January 2, 2025", [5]],
    ]);
  });

  it("gives nothing for nothing", () => {
    expect(groupByDay([], now)).toEqual([]);
  });
});
