import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { insertCharacter } from "./fixtures.ts";

describe("smoke", () => {
  it("lists a character", async () => {
    await insertCharacter({ name: "Aria", tags: ["fantasy", "romance"] });
    const res = await exports.default.fetch("http://localhost/api/characters");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { characters: { name: string }[]; total: number };
    expect(body.total).toBe(1);
    expect(body.characters[0]!.name).toBe("Aria");
  });
});
