/**
 * The demo characters' pictures as the site serves them: each has its SVG
 * and, beside it, the PNG link preview (scripts/generate-demo-avatars.ts)
 * that worker/lib/share-meta.ts names as `og:image` — a real PNG of the
 * avatar's 300×400.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEMO_CHARACTERS } from "../data/demo-characters.ts";
import { ROOT } from "./tools.ts";

const DIR = join(ROOT, "web/public/avatars/demo");
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe("demo avatars", () => {
  it.each(DEMO_CHARACTERS.map((c) => c.slug))("%s has its SVG and a 300×400 PNG preview", (slug) => {
    expect(existsSync(join(DIR, `${slug}.svg`))).toBe(true);
    const png = readFileSync(join(DIR, `${slug}.png`));
    expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    // IHDR: width and height, big-endian, at bytes 16–23.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([300, 400]);
  });
});
