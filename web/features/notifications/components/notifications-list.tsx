/**
 * The notifications page's list (issue 39): grouped by day, newest first;
 * each one reads as its sentence and leads to its page (opening it marks it
 * read); unread ones carry a dot and "Mark as read"; "Mark all as read"
 * above. Kept live: a new notification or a read elsewhere refetches it
 * (lib/notification-socket.ts).
 */
import { formatDistanceToNow } from "date-fns";
import { Bell, Check, CheckCheck, Heart, MessageCircle, Sparkles, UserPlus, Users } from "lucide-react";
import type { LucideIcon } from "lucide-react";
import { Link } from "react-router";
import type { Notification, NotificationKind } from "../../../../schema/notifications.ts";
import { ListEmpty, ListLoadFailed, ListLoading } from "../../../components/list-states.tsx";
import { Avatar } from "../../../components/ui/avatar.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { serverErrorText } from "../../../lib/api-client.ts";
import { cn } from "../../../lib/utils.ts";
import { useMarkRead, useNotifications } from "../api/notifications.ts";
import { groupByDay } from "../lib/group-by-day.ts";

const KIND_ICONS: Record<NotificationKind, LucideIcon> = {
  comment_reply: MessageCircle,
  character_comment: MessageCircle,
  new_follower: UserPlus,
  followed_character: Sparkles,
  room_joined: Users,
  room_message: MessageCircle,
  favorite_milestone: Heart,
  character_check_in: Bell,
};

export function NotificationsList() {
  const query = useNotifications();
  const markRead = useMarkRead();
  const failed = (error: unknown) => toast({ title: "Couldn't mark as read", description: serverErrorText(error) ?? "Please try again.", variant: "destructive" });

  if (query.isPending) {
    return <ListLoading label="Loading your notifications" rowClassName="h-16 rounded-xl" rows={3} />;
  }
  if (query.isError) return <ListLoadFailed title="Failed to load your notifications" onRetry={() => void query.refetch()} />;

  const { notifications, unread } = query.data;
  return (
    <div>
      <div className="mb-4 flex items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {unread === 0 ? "You're all caught up." : `${unread} unread`}
        </p>
        <Button variant="outline" size="sm" disabled={unread === 0} onClick={() => markRead.mutate({ all: true }, { onError: failed })}>
          <CheckCheck aria-hidden="true" />
          Mark all as read
        </Button>
      </div>
      {notifications.length === 0 ? (
        <ListEmpty icon={Bell} title="No notifications yet">
          Replies to your comments, new followers and news from creators you follow show up here.
        </ListEmpty>
      ) : (
        groupByDay(notifications).map((group) => (
          <section key={group.day} aria-labelledby={`day-${group.day}`} className="mb-6">
            <h2 id={`day-${group.day}`} className="mb-2 text-sm font-semibold text-muted-foreground">
              {group.label}
            </h2>
            <ul className="divide-y divide-border rounded-xl border border-border">
              {group.items.map((notification) => (
                <NotificationItem
                  key={notification.id}
                  notification={notification}
                  onRead={() => markRead.mutate({ ids: [notification.id] }, { onError: failed })}
                />
              ))}
            </ul>
          </section>
        ))
      )}
    </div>
  );
}

function NotificationItem({ notification, onRead }: { notification: Notification; onRead: () => void }) {
  const unread = notification.readAt === null;
  const Icon = KIND_ICONS[notification.kind];
  const actorName = notification.actor ? notification.actor.name?.trim() || notification.actor.username.slice(1) : null;
  return (
    <li className={cn("flex items-start gap-3 px-3 py-3 sm:px-4", unread && "bg-primary/5")}>
      {notification.actor ? (
        <Avatar src={notification.actor.avatarUrl} fallback={[...(actorName ?? "?")][0]?.toLocaleUpperCase() ?? "?"} className="size-10 shrink-0" />
      ) : (
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-muted">
          <Icon aria-hidden="true" className="size-5 text-muted-foreground" />
        </span>
      )}
      <div className="min-w-0 flex-1">
        <Link to={notification.target.url} onClick={unread ? onRead : undefined} className="block break-words hover:underline">
          {unread && <span className="sr-only">Unread: </span>}
          <span className={cn(unread && "font-semibold")}>{notification.text}</span>
        </Link>
        <p className="mt-0.5 text-xs text-muted-foreground">
          <time dateTime={notification.createdAt} title={new Date(notification.createdAt).toLocaleString()}>
            {formatDistanceToNow(new Date(notification.createdAt), { addSuffix: true })}
          </time>
        </p>
      </div>
      {unread && (
        <div className="flex shrink-0 items-center gap-2">
          <span aria-hidden="true" className="size-2 rounded-full bg-accent-pink" />
          <Button variant="ghost" size="sm" className="h-8 px-2 text-xs" onClick={onRead} aria-label={`Mark as read: ${notification.text}`}>
            <Check aria-hidden="true" className="sm:hidden" />
            <span className="hidden sm:inline">Mark as read</span>
          </Button>
        </div>
      )}
    </li>
  );
}
