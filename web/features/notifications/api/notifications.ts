/**
 * Notifications (issue 39; DESIGN.md turn 4 "Notifications"):
 * `GET /api/notifications`, `POST /api/notifications/read`, `GET/PUT
 * /api/profile/notifications`, and the unread count the live socket keeps
 * (lib/notification-socket.ts writes it into the query cache under
 * UNREAD_KEY, so the bell and the page show the same number at once).
 */
import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { NotificationKind, NotificationList, NotificationSettings, QuietHours } from "../../../../schema/notifications.ts";
import { apiGet, apiSend, apiSendUnread } from "../../../lib/api-client.ts";

/** Notifications shown on the page: the newest 100 (the inbox keeps at most 1,000). */
export const PAGE_SIZE = 100;

export const LIST_KEY = ["/api/notifications"] as const;
/** The live unread count (a number), written by the socket and by every list read. */
export const UNREAD_KEY = ["/api/notifications", "unread"] as const;

export const notificationsQueryOptions = (client: QueryClient) =>
  queryOptions({
    queryKey: LIST_KEY,
    queryFn: async (): Promise<NotificationList> => {
      const list = (await apiGet("/api/notifications", { query: `limit=${PAGE_SIZE}` })) as NotificationList;
      client.setQueryData(UNREAD_KEY, list.unread);
      return list;
    },
  });

export function useNotifications() {
  const client = useQueryClient();
  return useQuery(notificationsQueryOptions(client));
}

/** The unread count as last told (undefined before the socket's first frame). */
export function useUnreadCount(): number | undefined {
  return useQuery({ queryKey: UNREAD_KEY, queryFn: () => 0, enabled: false, staleTime: Infinity }).data;
}

/** Marks some (`ids`) or every (`all`) notification read; the page shows it at once, the socket tells the other tabs. */
export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (which: { ids: string[] } | { all: true }) => apiSendUnread("post", "/api/notifications/read", { body: which }),
    onMutate: (which) => {
      const now = new Date().toISOString();
      const ids = "ids" in which ? new Set(which.ids) : null;
      client.setQueryData<NotificationList>(LIST_KEY, (list) => {
        if (!list) return list;
        const notifications = list.notifications.map((n) => (n.readAt === null && (ids === null || ids.has(n.id)) ? { ...n, readAt: now } : n));
        const unread = notifications.filter((n) => n.readAt === null).length;
        client.setQueryData(UNREAD_KEY, unread);
        return { notifications, unread };
      });
    },
    onSettled: () => client.invalidateQueries({ queryKey: LIST_KEY, exact: true }),
  });
}

export const SETTINGS_KEY = ["/api/profile/notifications"] as const;

export function useNotificationSettings() {
  return useQuery({ queryKey: SETTINGS_KEY, queryFn: () => apiGet("/api/profile/notifications") as Promise<NotificationSettings> });
}

/** Turns one kind on or off; the switch moves at once and comes back if the save fails. */
export function useSetNotificationKind() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, on }: { kind: NotificationKind; on: boolean }) =>
      apiSend("put", "/api/profile/notifications", { body: { kinds: { [kind]: on } } }) as Promise<NotificationSettings>,
    onMutate: ({ kind, on }) => {
      const before = client.getQueryData<NotificationSettings>(SETTINGS_KEY);
      if (before) client.setQueryData<NotificationSettings>(SETTINGS_KEY, { ...before, kinds: { ...before.kinds, [kind]: on } });
      return { before };
    },
    onError: (_error, _change, context) => {
      if (context?.before) client.setQueryData(SETTINGS_KEY, context.before);
    },
    onSuccess: (settings) => client.setQueryData(SETTINGS_KEY, settings),
  });
}

/** Sets the quiet hours (null: none), in the browser's time zone; the form shows them at once and goes back if the save fails. */
export function useSetQuietHours() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (quietHours: QuietHours | null) => apiSend("put", "/api/profile/notifications", { body: { quietHours } }) as Promise<NotificationSettings>,
    onMutate: (quietHours) => {
      const before = client.getQueryData<NotificationSettings>(SETTINGS_KEY);
      if (before) client.setQueryData<NotificationSettings>(SETTINGS_KEY, { ...before, quietHours });
      return { before };
    },
    onError: (_error, _change, context) => {
      if (context?.before) client.setQueryData(SETTINGS_KEY, context.before);
    },
    onSuccess: (settings) => client.setQueryData(SETTINGS_KEY, settings),
  });
}
