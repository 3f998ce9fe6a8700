/**
 * The bell in the header (issue 39): a link to /notifications with the
 * unread count, kept live by this tab's notification socket
 * (lib/notification-socket.ts), so a reply elsewhere lights it without a
 * reload and reading in another tab clears it. Loaded only for signed-in
 * people (the header imports it lazily), like the user menu.
 */
import { useQueryClient } from "@tanstack/react-query";
import { Bell } from "lucide-react";
import { useEffect } from "react";
import { Link, useLocation } from "react-router";
import { cn } from "../../../lib/utils.ts";
import { useUnreadCount } from "../api/notifications.ts";
import { connectNotifications } from "../lib/notification-socket.ts";

/** The badge's text: the count, "99+" beyond 99. */
export function badgeText(count: number): string {
  return count > 99 ? "99+" : String(count);
}

export function NotificationBell() {
  const client = useQueryClient();
  const unread = useUnreadCount() ?? 0;
  const { pathname } = useLocation();
  useEffect(() => connectNotifications(client), [client]);

  const label = unread === 0 ? "Notifications" : `Notifications, ${unread} unread`;
  return (
    <Link
      to="/notifications"
      aria-label={label}
      aria-current={pathname === "/notifications" ? "page" : undefined}
      className="relative inline-flex size-10 items-center justify-center rounded-full border border-border text-foreground transition-colors hover:bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
    >
      <Bell aria-hidden="true" className="size-5" />
      {unread > 0 && (
        <span
          data-testid="unread-badge"
          aria-hidden="true"
          className={cn(
            "absolute -top-1 -right-1 flex h-5 min-w-5 items-center justify-center rounded-full bg-accent-pink px-1 text-xs leading-none font-semibold text-white",
          )}
        >
          {badgeText(unread)}
        </span>
      )}
    </Link>
  );
}
