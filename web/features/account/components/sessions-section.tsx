/**
 * "Signed-in devices" on /profile: every session of the person (device
 * from its user agent, when it signed in, last seen), "This device" on the
 * one in hand, "Sign out" on each other, and "Sign out of all other
 * devices" — for the phone that was lost.
 */
import { formatDistanceToNow } from "date-fns";
import { LogOut, Monitor, Smartphone } from "lucide-react";
import type { AccountSession } from "../../../../schema/api.ts";
import { ListLoadFailed, ListLoading } from "../../../components/list-states.tsx";
import { Badge } from "../../../components/ui/badge.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Card, CardContent, CardHeader } from "../../../components/ui/card.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { serverErrorText } from "../../../lib/api-client.ts";
import { useEndOtherSessions, useEndSession } from "../api/end-sessions.ts";
import { useSessions } from "../api/get-sessions.ts";
import { deviceKind, deviceName } from "../lib/device.ts";

const fullDate = (iso: string) => new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });

function SessionItem({ session, onSignOut, busy }: { session: AccountSession; onSignOut: () => void; busy: boolean }) {
  const name = deviceName(session.userAgent);
  const Icon = deviceKind(session.userAgent) === "mobile" ? Smartphone : Monitor;
  return (
    <li aria-label={name} className="flex items-center gap-3 rounded-lg border border-border p-3">
      <Icon aria-hidden="true" className="size-5 shrink-0 text-muted-foreground" />
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
          <span className="break-words">{name}</span>
          {session.current && <Badge variant="default">This device</Badge>}
        </p>
        <p className="text-xs text-muted-foreground">
          {session.current ? (
            <>Signed in {formatDistanceToNow(new Date(session.createdAt), { addSuffix: true })}</>
          ) : (
            <>
              Last seen <time dateTime={session.lastSeenAt} title={fullDate(session.lastSeenAt)}>{formatDistanceToNow(new Date(session.lastSeenAt), { addSuffix: true })}</time>
              {" · "}signed in <time dateTime={session.createdAt} title={fullDate(session.createdAt)}>{fullDate(session.createdAt)}</time>
            </>
          )}
        </p>
      </div>
      {!session.current && (
        <Button variant="outline" size="sm" onClick={onSignOut} disabled={busy} aria-label={`Sign out ${name}`}>
          Sign out
        </Button>
      )}
    </li>
  );
}

export function SessionsSection() {
  const query = useSessions();
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const sessions = query.data ?? [];
  const others = sessions.filter((s) => !s.current).length;

  const failed = (fallback: string) => (error: unknown) =>
    toast({ title: "Error", description: serverErrorText(error) ?? fallback, variant: "destructive" });

  const onSignOut = (session: AccountSession) =>
    endOne.mutate(session.id, {
      onSuccess: () => toast({ title: "Signed out", description: `${deviceName(session.userAgent)} is signed out.` }),
      onError: failed("Failed to sign that device out"),
    });

  const onSignOutOthers = () =>
    endOthers.mutate(undefined, {
      onSuccess: () => toast({ title: "Signed out", description: "Every other device is signed out." }),
      onError: failed("Failed to sign the other devices out"),
    });

  let body;
  if (query.isPending) {
    body = <ListLoading label="Loading your devices" rowClassName="h-16" />;
  } else if (query.isError) {
    body = <ListLoadFailed title="Failed to load your devices" onRetry={() => void query.refetch()} />;
  } else {
    body = (
      <ul aria-label="Signed-in devices" className="space-y-3">
        {sessions.map((session) => (
          <SessionItem key={session.id} session={session} onSignOut={() => onSignOut(session)} busy={endOne.isPending || endOthers.isPending} />
        ))}
      </ul>
    );
  }

  return (
    <Card role="region" className="mt-6" aria-labelledby="sessions-heading">
      <CardHeader className="gap-4 p-6 pb-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1">
          <h2 id="sessions-heading" className="text-xl font-bold tracking-tight">
            Signed-in devices
          </h2>
          <p className="text-sm text-muted-foreground">Where your account is signed in. Sign out a device you no longer use or have lost.</p>
        </div>
        {others > 0 && (
          <Button variant="secondary" className="self-start" onClick={onSignOutOthers} disabled={endOthers.isPending}>
            <LogOut aria-hidden="true" /> Sign out of all other devices
          </Button>
        )}
      </CardHeader>
      <CardContent className="p-6 pt-4">{body}</CardContent>
    </Card>
  );
}
