/**
 * Tells a suspended person why the app treats them as a visitor (issue
 * "Trust and safety"): their session answers 403 with the reason on
 * `GET /api/auth/user` and on every write. Shown under the header on every
 * page, with a way to sign out.
 */
import { ShieldAlert } from "lucide-react";
import { LOGOUT_PATH, useUser } from "../lib/auth.ts";

/** The notice, or nothing for everyone who is not suspended. The live region stays, so the notice is announced when it appears. */
export function SuspensionBanner() {
  const { suspended } = useUser();
  return (
    <div role="status" className="empty:hidden">
      {suspended && (
        <div className="border-b border-red-900/60 bg-red-950/50">
          <p className="mx-auto flex max-w-[1600px] flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3 text-sm text-red-100 md:px-6">
            <ShieldAlert aria-hidden="true" className="size-4 shrink-0 text-red-300" />
            <span className="min-w-0 flex-1">{suspended}</span>
            <a href={LOGOUT_PATH} className="rounded font-medium text-white underline underline-offset-4 hover:text-red-200">
              Sign out
            </a>
          </p>
        </div>
      )}
    </div>
  );
}
