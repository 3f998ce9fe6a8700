import { describe, expect, it } from "vitest";
import { CHAT_INPUT_MAX_HEIGHT_PX, CHAT_INPUT_MIN_HEIGHT_PX, chatInputHeight, fitChatInput, resetChatInput } from "./textarea-height.ts";

describe("chatInputHeight", () => {
  it("is 44 to 120 px (SPEC.md §9)", () => {
    expect([CHAT_INPUT_MIN_HEIGHT_PX, CHAT_INPUT_MAX_HEIGHT_PX]).toEqual([44, 120]);
  });

  it("never goes below 44 px, even for an empty input", () => {
    expect(chatInputHeight(0)).toEqual({ heightPx: 44, scrolls: false });
    expect(chatInputHeight(20)).toEqual({ heightPx: 44, scrolls: false });
  });

  it("follows the content in between, rounding up to whole pixels", () => {
    expect(chatInputHeight(64)).toEqual({ heightPx: 64, scrolls: false });
    expect(chatInputHeight(88.4)).toEqual({ heightPx: 89, scrolls: false });
    expect(chatInputHeight(120)).toEqual({ heightPx: 120, scrolls: false });
  });

  it("stops at 120 px and scrolls beyond", () => {
    expect(chatInputHeight(121)).toEqual({ heightPx: 120, scrolls: true });
    expect(chatInputHeight(900)).toEqual({ heightPx: 120, scrolls: true });
  });
});

describe("fitChatInput / resetChatInput", () => {
  const fakeTextarea = (scrollHeight: number) =>
    ({ scrollHeight, style: { height: "", overflowY: "" } }) as unknown as HTMLTextAreaElement;

  it("sets the element's height from its content", () => {
    const tall = fakeTextarea(300);
    fitChatInput(tall);
    expect(tall.style).toEqual({ height: "120px", overflowY: "auto" });
    const short = fakeTextarea(30);
    fitChatInput(short);
    expect(short.style).toEqual({ height: "44px", overflowY: "hidden" });
  });

  it("resets to the minimum after sending", () => {
    const el = fakeTextarea(300);
    fitChatInput(el);
    resetChatInput(el);
    expect(el.style).toEqual({ height: "44px", overflowY: "hidden" });
  });
});
