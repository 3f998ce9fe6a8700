/**
 * "Push notifications on this device" (issue 39): off until the person
 * turns it on, which is when the browser asks its permission
 * (lib/push-device.ts). On also turns the account's `push` setting on; off
 * stops pushes to this device only (others keep theirs). Why it could not be
 * turned on is said under the switch.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Switch } from "../../../components/ui/switch.tsx";
import { apiSend, serverErrorText } from "../../../lib/api-client.ts";
import { SETTINGS_KEY } from "../api/notifications.ts";
import { currentSubscription, PushSetupError, PUSH_TEXTS, pushSupported, subscribeThisDevice, unsubscribeThisDevice } from "../lib/push-device.ts";

export function PushSwitch({ pushOn }: { pushOn: boolean }) {
  const client = useQueryClient();
  const [subscribed, setSubscribed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(pushSupported() ? null : PUSH_TEXTS.unsupported);
  useEffect(() => {
    let live = true;
    void currentSubscription()
      .then((subscription) => live && setSubscribed(subscription !== null))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, []);

  const change = async (on: boolean) => {
    setBusy(true);
    setProblem(null);
    try {
      if (on) {
        await subscribeThisDevice();
        if (!pushOn) client.setQueryData(SETTINGS_KEY, await apiSend("put", "/api/profile/notifications", { body: { push: true } }));
      } else {
        await unsubscribeThisDevice();
      }
      setSubscribed(on);
    } catch (error) {
      setProblem(error instanceof PushSetupError ? error.message : (serverErrorText(error) ?? "Push notifications could not be changed. Please try again."));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="space-y-1 border-t pt-3">
      <div className="flex items-center justify-between gap-4">
        <label htmlFor="notify-push" className="text-sm">
          Push notifications on this device <span className="text-muted-foreground">(when the site is closed)</span>
        </label>
        <Switch id="notify-push" checked={subscribed && pushOn} disabled={busy || !pushSupported()} onCheckedChange={(on) => void change(on)} />
      </div>
      <p role="status" className="text-sm text-muted-foreground empty:hidden">
        {problem}
      </p>
    </div>
  );
}
