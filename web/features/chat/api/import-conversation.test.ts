import { describe, expect, it } from "vitest";
import { importConversation, importQuery } from "./import-conversation.ts";

describe("importQuery", () => {
  it("names one character as characterId and a group as characterIds", () => {
    expect(importQuery(7)).toBe("characterId=7");
    expect(importQuery([7])).toBe("characterId=7");
    expect(importQuery([7, 8, 9])).toBe("characterIds=7,8,9");
  });
});

describe("importConversation", () => {
  it("sends the file as the body to the group's query, and a 400 carries the server's sentence", async () => {
    const calls: string[] = [];
    const refusal = { error: 'No character of this chat is called "Zed".', code: "validation_failed" };
    const fetchImpl = async (url: string, init?: RequestInit) => {
      calls.push(`${init?.method} ${url} ${await new Response(init?.body as BodyInit).text()}`);
      return new Response(JSON.stringify(refusal), { status: 400, headers: { "Content-Type": "application/json" } });
    };
    await expect(importConversation([3, 4], new Blob(['{"name":"Zed"}']), fetchImpl)).rejects.toThrow(/^400: .*Zed/);
    expect(calls).toEqual(['POST /api/conversations/import?characterIds=3,4 {"name":"Zed"}']);
  });
});
