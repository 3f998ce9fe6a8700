import { describe, expect, it } from "vitest";
import { CardFileError, cardContentType, importCharacterCard } from "./import-character-card.ts";

describe("cardContentType", () => {
  it("goes by the file's type first", () => {
    expect(cardContentType({ name: "card", type: "image/png" })).toBe("image/png");
    expect(cardContentType({ name: "card.bin", type: "application/json" })).toBe("application/json");
  });

  it("falls back to the extension when the browser gives no type", () => {
    expect(cardContentType({ name: "Seraphina.PNG", type: "" })).toBe("image/png");
    expect(cardContentType({ name: "seraphina.json", type: "" })).toBe("application/json");
  });

  it("gives null for other files", () => {
    expect(cardContentType({ name: "notes.txt", type: "text/plain" })).toBeNull();
    expect(cardContentType({ name: "photo.jpg", type: "image/jpeg" })).toBeNull();
  });
});

describe("importCharacterCard", () => {
  it("POSTs the raw file with its Content-Type and the session cookie", async () => {
    const calls: { url: string; init?: RequestInit }[] = [];
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "card.png", { type: "image/png" });
    const character = await importCharacterCard(file, async (url, init) => {
      calls.push({ url, init });
      return Response.json({ id: 7, name: "Seraphina" }, { status: 201 });
    });
    expect(character).toEqual({ id: 7, name: "Seraphina" });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe("/api/characters/import");
    expect(calls[0]!.init?.method).toBe("POST");
    expect(calls[0]!.init?.credentials).toBe("include");
    expect(new Headers(calls[0]!.init?.headers).get("content-type")).toBe("image/png");
    expect(calls[0]!.init?.body).toBe(file);
  });

  it("throws the server's answer as '<status>: <body>'", async () => {
    const file = new File(["{}"], "card.json", { type: "application/json" });
    const body = '{"error":"The character card is not valid JSON","code":"validation_failed"}';
    await expect(importCharacterCard(file, async () => new Response(body, { status: 400 }))).rejects.toThrow(`400: ${body}`);
  });

  it("refuses other files and files over 10 MB without sending them", async () => {
    const send = async () => {
      throw new Error("must not send");
    };
    await expect(importCharacterCard(new File(["x"], "notes.txt", { type: "text/plain" }), send)).rejects.toBeInstanceOf(CardFileError);
    const big = new File([new Uint8Array(10_485_761)], "big.png", { type: "image/png" });
    await expect(importCharacterCard(big, send)).rejects.toThrow("The card file is too large (at most 10 MB)");
  });
});
