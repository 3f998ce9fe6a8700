import { describe, expect, it } from "vitest";
import { commentDraftKey, readDraft, writeDraft } from "./comment-draft.ts";

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

describe("comment drafts", () => {
  it("keeps a draft per character until it is emptied", () => {
    const storage = memoryStorage();
    writeDraft(commentDraftKey(12), "Loved the ending", storage);
    expect(readDraft(commentDraftKey(12), storage)).toBe("Loved the ending");
    expect(readDraft(commentDraftKey(13), storage)).toBe("");
    writeDraft(commentDraftKey(12), "  ", storage);
    expect(readDraft(commentDraftKey(12), storage)).toBe("");
  });

  it("reads nothing and keeps nothing when storage throws", () => {
    const broken = {
      getItem: () => {
        throw new Error("blocked");
      },
      setItem: () => {
        throw new Error("full");
      },
      removeItem: () => {},
    };
    expect(readDraft("k", broken)).toBe("");
    expect(() => writeDraft("k", "text", broken)).not.toThrow();
  });
});
