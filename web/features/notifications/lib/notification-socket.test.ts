import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import type { NotificationList } from "../../../../schema/notifications.ts";
import { LIST_KEY, UNREAD_KEY } from "../api/notifications.ts";
import { applyNotificationFrame, parseNotificationFrame } from "./notification-socket.ts";

describe("parseNotificationFrame", () => {
  it("reads the server's frames and nothing else", () => {
    expect(parseNotificationFrame('{"type":"unread","count":3}')).toEqual({ type: "unread", count: 3 });
    expect(parseNotificationFrame('{"type":"pong"}')).toBeNull();
    expect(parseNotificationFrame('{"type":"unread","count":-1}')).toBeNull();
    expect(parseNotificationFrame("not json")).toBeNull();
    expect(parseNotificationFrame(new ArrayBuffer(2))).toBeNull();
  });
});

describe("applyNotificationFrame", () => {
  it("puts the told count where the bell reads it and marks a shown list stale", () => {
    const client = new QueryClient();
    const list: NotificationList = { notifications: [], unread: 0 };
    client.setQueryData(LIST_KEY, list);
    applyNotificationFrame(client, { type: "unread", count: 4 });
    expect(client.getQueryData(UNREAD_KEY)).toBe(4);
    expect(client.getQueryState(LIST_KEY)?.isInvalidated).toBe(true);
    client.setQueryData(LIST_KEY, list);
    applyNotificationFrame(client, {
      type: "notification",
      unread: 5,
      notification: {
        id: crypto.randomUUID(),
        kind: "new_follower",
        createdAt: new Date().toISOString(),
        readAt: null,
        actor: { username: "@ana", name: "Ana", avatarUrl: null },
        target: { type: "user", id: "@ana", title: "Ana", url: "/u/ana" },
        count: 1,
        actorCount: 1,
        milestone: null,
        text: "Ana followed you",
      },
    });
    expect(client.getQueryData(UNREAD_KEY)).toBe(5);
    expect(client.getQueryState(LIST_KEY)?.isInvalidated).toBe(true);
  });
});
