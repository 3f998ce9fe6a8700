/**
 * What a push shows: the service worker's reading of the Inbox's push body
 * (web/sw/push-message.ts), down to the page a click opens.
 */
import { describe, expect, it } from "vitest";
import { APP_ICON, DEFAULT_NOTIFICATION_URL, pushNotificationOf } from "./push-message.ts";

const ORIGIN = "https://fabled.example";

describe("pushNotificationOf", () => {
  it("shows the Inbox's push: its text, the character's picture, its tag, and opens its page", () => {
    const body = JSON.stringify({ title: "Fabled", body: "Wren checked in on you", url: "/chat/c1", icon: "/objects/avatars/wren.png", tag: "n1" });
    expect(pushNotificationOf(body, ORIGIN)).toEqual({
      title: "Fabled",
      options: { body: "Wren checked in on you", icon: "/objects/avatars/wren.png", badge: APP_ICON, tag: "n1", data: { url: "/chat/c1" } },
    });
  });

  it("without a picture shows the app's icon, and without a page opens the notifications", () => {
    const { options } = pushNotificationOf(JSON.stringify({ body: "Ana followed you", icon: null }), ORIGIN);
    expect(options.icon).toBe(APP_ICON);
    expect(options.data.url).toBe(DEFAULT_NOTIFICATION_URL);
    expect(options.tag).toBeUndefined();
  });

  it("a body that is not JSON shows as the text of a Fabled notification; no body shows an empty one", () => {
    expect(pushNotificationOf("hello there", ORIGIN)).toMatchObject({ title: "Fabled", options: { body: "hello there", data: { url: "/notifications" } } });
    expect(pushNotificationOf("[1,2]", ORIGIN).options.body).toBe("[1,2]");
    expect(pushNotificationOf(null, ORIGIN)).toMatchObject({ title: "Fabled", options: { body: "" } });
  });

  it("never opens another site, however the address is written", () => {
    for (const url of ["https://evil.example/x", "//evil.example/x", "/\\evil.example/x", "javascript:alert(1)", "chat/c1", 42]) {
      expect(pushNotificationOf(JSON.stringify({ body: "x", url }), ORIGIN).options.data.url, String(url)).toBe(DEFAULT_NOTIFICATION_URL);
    }
    expect(pushNotificationOf(JSON.stringify({ url: "/s/abc?x=1#m2" }), ORIGIN).options.data.url).toBe("/s/abc?x=1#m2");
  });

});
