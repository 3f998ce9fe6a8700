import { describe, expect, it } from "vitest";
import { type CharacterPageParams, charactersQueryString, isCharacterListKey } from "./get-characters.ts";

const base: CharacterPageParams = { tags: [], search: "", showNsfw: false, sort: "for-you", offset: 0 };
const parse = (params: CharacterPageParams) => new URLSearchParams(charactersQueryString(params));

describe("charactersQueryString", () => {
  it("leaves out empty tags and search, pages by 20", () => {
    expect(charactersQueryString(base)).toBe("showNsfw=false&nsfw=false&limit=20&offset=0&sort=for-you");
  });

  it("sends nsfw=false only while NSFW is off", () => {
    expect(parse(base).get("nsfw")).toBe("false");
    const on = parse({ ...base, showNsfw: true });
    expect(on.get("showNsfw")).toBe("true");
    expect(on.has("nsfw")).toBe(false);
  });

  it("comma-joins the tags", () => {
    const query = parse({ ...base, tags: ["fantasy", "sci-fi", "slice of life"] });
    expect(query.get("tags")).toBe("fantasy,sci-fi,slice of life");
    expect(charactersQueryString({ ...base, tags: ["a", "b"] })).toContain("tags=a%2Cb");
  });

  it("sends trimmed search text and omits blank search", () => {
    expect(parse({ ...base, search: "  dark elf " }).get("search")).toBe("dark elf");
    expect(parse({ ...base, search: "   " }).has("search")).toBe(false);
  });

  it("passes the tab as sort and the offset", () => {
    const query = parse({ ...base, sort: "trending", offset: 40 });
    expect(query.get("sort")).toBe("trending");
    expect(query.get("offset")).toBe("40");
    expect(query.get("limit")).toBe("20");
  });

  it("sends tagMode=any only when two tags or more are selected", () => {
    expect(parse({ ...base, tags: ["a", "b"], tagMode: "any" }).get("tagMode")).toBe("any");
    expect(parse({ ...base, tags: ["a"], tagMode: "any" }).has("tagMode")).toBe(false);
    expect(parse({ ...base, tags: ["a", "b"], tagMode: "all" }).has("tagMode")).toBe(false);
  });

  it("sends the hidden tags as excludeTags, sorted and without repeats, and omits an empty list", () => {
    expect(parse({ ...base, excludeTags: ["vore", "Gore", "gore"] }).get("excludeTags")).toBe("gore,vore");
    expect(parse({ ...base, excludeTags: [] }).has("excludeTags")).toBe(false);
    expect(charactersQueryString({ ...base, excludeTags: ["b", "a"] })).toBe(charactersQueryString({ ...base, excludeTags: ["a", "b"] }));
  });
});

describe("creator pages and the Following tab", () => {
  it("sends creator and following=true only when set", () => {
    expect(parse({ ...base, creator: "nightowl" }).get("creator")).toBe("nightowl");
    expect(parse({ ...base, following: true }).get("following")).toBe("true");
    expect(parse(base).has("creator")).toBe(false);
    expect(parse({ ...base, following: false }).has("following")).toBe(false);
  });

  it("counts Favorites pages as character lists, but not one character's queries", () => {
    expect(isCharacterListKey(["/api/favorites", { offset: 0 }])).toBe(true);
    expect(isCharacterListKey(["/api/characters", { creator: "nightowl" }])).toBe(true);
    expect(isCharacterListKey(["/api/characters", "12"])).toBe(false);
    expect(isCharacterListKey(["/api/users", "nightowl"])).toBe(false);
  });
});
