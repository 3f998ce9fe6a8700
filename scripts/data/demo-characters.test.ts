// The demo catalog is what a newcomer sees first: every card must be one the
// app itself would accept, and the set must be varied enough to browse.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { characterInputSchema, tagNameSchema } from "../../schema/inputs.ts";
import { ROOT } from "../lib/tools.ts";
import { DEMO_CHARACTERS, DEMO_CREATORS, demoAvatarUrl } from "./demo-characters.ts";

describe("demo characters", () => {
  it.each(DEMO_CHARACTERS.map((c) => [c.slug, c] as const))("%s passes characterInputSchema", (_, c) => {
    const input = {
      name: c.name,
      description: c.description,
      longDescription: c.longDescription,
      personality: c.personality,
      scenario: c.scenario,
      exampleConversation: c.exampleConversation,
      // The schema takes absolute URLs or uploaded-object paths; demo avatars are
      // same-origin static files, checked here as the absolute URL a browser resolves.
      avatarUrl: new URL(demoAvatarUrl(c.slug), "https://fabled.example").href,
      tags: c.tags,
      isNsfw: c.isNsfw,
      greeting: c.greeting,
      alternateGreetings: c.alternateGreetings ?? [],
      creatorNotes: c.creatorNotes,
      characterBook: c.characterBook,
    };
    const result = characterInputSchema.safeParse(input);
    expect(result.success ? [] : result.error.issues).toEqual([]);
  });

  it("is a varied set of at least 40", () => {
    expect(DEMO_CHARACTERS.length).toBeGreaterThanOrEqual(40);
    const tags = new Set(DEMO_CHARACTERS.flatMap((c) => c.tags));
    expect(tags.size).toBeGreaterThanOrEqual(30);
    for (const tag of tags) {
      expect(tag).toBe(tag.toLowerCase());
      expect(tagNameSchema.safeParse(tag).success).toBe(true);
    }
    for (const c of DEMO_CHARACTERS) {
      expect(c.tags.length, c.slug).toBeGreaterThanOrEqual(2);
      expect(c.tags.length, c.slug).toBeLessThanOrEqual(6);
      expect(new Set(c.tags).size, c.slug).toBe(c.tags.length);
    }
    const nsfwShare = DEMO_CHARACTERS.filter((c) => c.isNsfw).length / DEMO_CHARACTERS.length;
    expect(nsfwShare).toBeGreaterThanOrEqual(0.15);
    expect(nsfwShare).toBeLessThanOrEqual(0.25);
    expect(new Set(DEMO_CHARACTERS.map((c) => c.name.toLowerCase())).size).toBe(DEMO_CHARACTERS.length);
    expect(new Set(DEMO_CHARACTERS.map((c) => c.slug)).size).toBe(DEMO_CHARACTERS.length);
    const creators = new Set(DEMO_CREATORS.map((u) => u.username));
    for (const c of DEMO_CHARACTERS) expect(creators, c.slug).toContain(c.creator);
    expect(new Set(DEMO_CHARACTERS.map((c) => c.creator)).size).toBe(DEMO_CREATORS.length);
  });

  it("writes cards the way roleplay front ends read them", () => {
    for (const c of DEMO_CHARACTERS) {
      expect(c.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(c.greeting, c.slug).toMatch(/\*[^*]+\*/);
      const paragraphs = c.greeting.split(/\n\s*\n/).length;
      expect(paragraphs, c.slug).toBeGreaterThanOrEqual(1);
      expect(paragraphs, c.slug).toBeLessThanOrEqual(3);
      const lines = c.exampleConversation.split("\n").filter((l) => l.trim());
      for (const line of lines) expect(line, c.slug).toMatch(/^\{\{(user|char)\}\}: /);
      const exchanges = lines.filter((l) => l.startsWith("{{user}}:")).length;
      expect(exchanges, c.slug).toBeGreaterThanOrEqual(2);
      expect(exchanges, c.slug).toBeLessThanOrEqual(3);
      expect(c.scenario, c.slug).toContain("{{user}}");
      for (const entry of c.characterBook?.entries ?? []) {
        expect(entry.keys.length).toBeGreaterThan(0);
        expect(entry.enabled).toBe(true);
      }
    }
  });

  it("keeps counters plausible and comments at zero", () => {
    for (const { slug, stats } of DEMO_CHARACTERS) {
      expect(stats.views, slug).toBeGreaterThanOrEqual(10);
      expect(stats.favorites, slug).toBeLessThan(stats.views);
      expect(stats.ratingUp + stats.ratingDown, slug).toBeLessThan(stats.messages);
      expect(stats.daysAgo, slug).toBeGreaterThanOrEqual(0);
      expect(stats.daysAgo, slug).toBeLessThanOrEqual(120);
    }
  });

  it("has a small generated avatar for each character", () => {
    for (const c of DEMO_CHARACTERS) {
      const file = join(ROOT, "web/public", demoAvatarUrl(c.slug));
      expect(existsSync(file), file).toBe(true);
      expect(statSync(file).size, file).toBeLessThan(8 * 1024);
      const svg = readFileSync(file, "utf8");
      expect(svg.startsWith("<svg"), file).toBe(true);
      expect(svg, file).not.toMatch(/<text|<script|href="http/);
    }
  });
});
