/**
 * The "Notifications" card on /profile (issue 39): one switch per kind
 * (`PUT /api/profile/notifications`), saved as it is flipped; a kind turned
 * off is not kept at all.
 */
import { ListLoadFailed } from "../../../components/list-states.tsx";
import { Card, CardContent, CardHeader } from "../../../components/ui/card.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { Switch } from "../../../components/ui/switch.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { serverErrorText } from "../../../lib/api-client.ts";
import { NOTIFICATION_KIND_LABELS, NOTIFICATION_KINDS } from "../../../../schema/notifications.ts";
import { useNotificationSettings, useSetNotificationKind } from "../api/notifications.ts";

/** Kinds a person can receive today (check-ins arrive with the chats that opt in). */
const SHOWN_KINDS = NOTIFICATION_KINDS.filter((kind) => kind !== "character_check_in");

export function NotificationSettingsSection() {
  const query = useNotificationSettings();
  const setKind = useSetNotificationKind();

  let body;
  if (query.isPending) {
    body = (
      <div className="space-y-3" aria-busy="true" aria-label="Loading your notification settings">
        <Skeleton className="h-8 w-full rounded-lg" />
        <Skeleton className="h-8 w-full rounded-lg" />
      </div>
    );
  } else if (query.isError) {
    body = <ListLoadFailed title="Failed to load your notification settings" onRetry={() => void query.refetch()} />;
  } else {
    body = (
      <ul className="space-y-3">
        {SHOWN_KINDS.map((kind) => (
          <li key={kind} className="flex items-center justify-between gap-4">
            <label htmlFor={`notify-${kind}`} className="text-sm">
              {NOTIFICATION_KIND_LABELS[kind]}
            </label>
            <Switch
              id={`notify-${kind}`}
              checked={query.data.kinds[kind]}
              onCheckedChange={(on) =>
                setKind.mutate(
                  { kind, on },
                  { onError: (error) => toast({ title: "Couldn't save", description: serverErrorText(error) ?? "Please try again.", variant: "destructive" }) },
                )
              }
            />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Card role="region" id="notification-settings" className="mt-6 scroll-mt-20" aria-labelledby="notification-settings-heading">
      <CardHeader className="space-y-1 p-6 pb-2">
        <h2 id="notification-settings-heading" className="text-xl font-bold tracking-tight">
          Notifications
        </h2>
        <p className="text-sm text-muted-foreground">What the bell tells you about. Nobody you blocked ever notifies you.</p>
      </CardHeader>
      <CardContent className="p-6 pt-4">{body}</CardContent>
    </Card>
  );
}
