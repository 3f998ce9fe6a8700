/**
 * The "Notifications" card on /profile (issue 39): one switch per kind
 * (`PUT /api/profile/notifications`), saved as it is flipped; a kind turned
 * off is not kept at all. Quiet hours (no check-ins then) are kept in the
 * browser's own time zone. Push on this device is its own switch
 * (push-switch.tsx).
 */
import { ListLoadFailed, ListLoading } from "../../../components/list-states.tsx";
import { Card, CardContent, CardHeader } from "../../../components/ui/card.tsx";
import { Switch } from "../../../components/ui/switch.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { serverErrorText } from "../../../lib/api-client.ts";
import { NOTIFICATION_KIND_LABELS, NOTIFICATION_KINDS, type QuietHours } from "../../../../schema/notifications.ts";
import { useNotificationSettings, useSetNotificationKind, useSetQuietHours } from "../api/notifications.ts";
import { PushSwitch } from "./push-switch.tsx";

const SHOWN_KINDS = NOTIFICATION_KINDS;
/** Quiet hours when first turned on: the night. */
const DEFAULT_QUIET = { start: "22:00", end: "08:00" };

function QuietHoursField({ value }: { value: QuietHours | null }) {
  const setQuiet = useSetQuietHours();
  const save = (next: QuietHours | null) =>
    setQuiet.mutate(next, { onError: (error) => toast({ title: "Couldn't save", description: serverErrorText(error) ?? "Please try again.", variant: "destructive" }) });
  const timeZone = value?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <div className="space-y-2 border-t pt-3">
      <div className="flex items-center justify-between gap-4">
        <label htmlFor="notify-quiet-hours" className="text-sm">
          Quiet hours <span className="text-muted-foreground">(no check-ins)</span>
        </label>
        <Switch id="notify-quiet-hours" checked={value !== null} onCheckedChange={(on) => save(on ? { ...DEFAULT_QUIET, timeZone } : null)} />
      </div>
      {value && (
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <label htmlFor="quiet-start">From</label>
          <input id="quiet-start" type="time" required className="rounded-md border bg-background px-2 py-1" value={value.start} onChange={(e) => e.target.value && save({ ...value, start: e.target.value })} />
          <label htmlFor="quiet-end">to</label>
          <input id="quiet-end" type="time" required className="rounded-md border bg-background px-2 py-1" value={value.end} onChange={(e) => e.target.value && save({ ...value, end: e.target.value })} />
          <span className="text-muted-foreground">{value.timeZone}</span>
        </div>
      )}
    </div>
  );
}

export function NotificationSettingsSection() {
  const query = useNotificationSettings();
  const setKind = useSetNotificationKind();

  let body;
  if (query.isPending) {
    body = <ListLoading label="Loading your notification settings" rowClassName="h-8 rounded-lg" />;
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
        <li>
          <QuietHoursField value={query.data.quietHours ?? null} />
        </li>
        <li>
          <PushSwitch pushOn={query.data.push === true} />
        </li>
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
