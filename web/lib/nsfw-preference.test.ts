import { describe, expect, it } from "vitest";
import { storeNsfwChoice, storedAdultConfirmation, storedShowNsfw } from "./nsfw-preference.ts";

function memoryStorage() {
  const items = new Map<string, string>();
  return { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v) };
}

describe("a visitor's NSFW choice", () => {
  it("is off for a new visitor", () => {
    const storage = memoryStorage();
    expect(storedShowNsfw(storage)).toBe(false);
    expect(storedAdultConfirmation(storage)).toBeNull();
  });

  it("is remembered on once confirmed, keeps the first confirmation's time, and can be turned off", () => {
    const storage = memoryStorage();
    storeNsfwChoice(true, 1_700_000_000_000, storage);
    expect(storedShowNsfw(storage)).toBe(true);
    storeNsfwChoice(false, null, storage);
    expect(storedShowNsfw(storage)).toBe(false);
    storeNsfwChoice(true, 1_800_000_000_000, storage);
    expect(storedAdultConfirmation(storage)).toBe(1_700_000_000_000);
  });

  it("counts a stored on without a confirmation as off", () => {
    const storage = memoryStorage();
    storage.setItem("fabled:show-nsfw", "true");
    expect(storedShowNsfw(storage)).toBe(false);
  });
});
