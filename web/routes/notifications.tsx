/**
 * `/notifications` — the person's notifications (issue 39), grouped by day,
 * with mark read and mark all read; the settings per kind are on /profile.
 * Visitors are asked to sign in.
 */
import { Link } from "react-router";
import { BackHomeLink } from "../components/back-home-link.tsx";
import { PageSpinner } from "../components/page-spinner.tsx";
import { SignInRequired } from "../components/sign-in-required.tsx";
import { useUser } from "../lib/auth.ts";
import { NotificationsList } from "../features/notifications/components/notifications-list.tsx";

export function NotificationsPage() {
  const { user, isLoading } = useUser();
  if (isLoading) return <PageSpinner />;
  if (!user) return <SignInRequired message="Please sign in to see your notifications" />;
  return (
    <div className="mx-auto max-w-2xl px-4 py-6 md:py-10">
      <title>Notifications — Fabled</title>
      <BackHomeLink />
      <header className="mt-4 mb-6">
        <h1 className="text-3xl font-bold tracking-tight">Notifications</h1>
        <p className="mt-1 text-muted-foreground">
          Choose what you hear about in{" "}
          <Link to="/profile#notification-settings" className="underline underline-offset-2">
            your profile
          </Link>
          .
        </p>
      </header>
      <NotificationsList />
    </div>
  );
}
