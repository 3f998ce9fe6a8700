/**
 * `/profile` — Edit Profile (SPEC.md §2) and, below it, the person's
 * personas, their notification settings, the people they blocked, their signed-in devices and their data
 * (download, delete the account; features/account): a spinner while the person loads; visitors are sent to "/" once
 * it is known they are not signed in.
 */
import { useEffect } from "react";
import { useNavigate } from "react-router";
import { PageSpinner } from "../components/page-spinner.tsx";
import { BackHomeLink } from "../components/back-home-link.tsx";
import { Card, CardContent, CardHeader } from "../components/ui/card.tsx";
import { useUser } from "../lib/auth.ts";
import { SessionsSection } from "../features/account/components/sessions-section.tsx";
import { YourDataSection } from "../features/account/components/your-data-section.tsx";
import { BlockedPeopleSection } from "../features/blocks/components/blocked-people-section.tsx";
import { NotificationSettingsSection } from "../features/notifications/components/notification-settings-section.tsx";
import { PersonasSection } from "../features/personas/components/personas-section.tsx";
import { ProfileForm } from "../features/profile/components/profile-form.tsx";

export function ProfilePage() {
  const { user, isLoading } = useUser();
  const navigate = useNavigate();

  useEffect(() => {
    if (!isLoading && !user) navigate("/", { replace: true });
  }, [isLoading, user, navigate]);

  if (isLoading || !user) return <PageSpinner />;

  return (
    <div className="mx-auto max-w-2xl px-4 py-6 md:py-10">
      <title>Edit Profile — Fabled</title>
      <BackHomeLink />
      <Card className="mt-4">
        <CardHeader className="p-6 pb-2">
          <h1 className="text-2xl font-bold tracking-tight">Edit Profile</h1>
          <p className="text-sm text-muted-foreground">Update your profile information</p>
        </CardHeader>
        <CardContent className="p-6 pt-4">
          <ProfileForm key={user.id} user={user} />
        </CardContent>
      </Card>
      <PersonasSection key={user.id} user={user} />
      <NotificationSettingsSection key={`notifications-${user.id}`} />
      <BlockedPeopleSection key={`blocks-${user.id}`} />
      <SessionsSection key={`sessions-${user.id}`} />
      <YourDataSection key={`data-${user.id}`} user={user} />
    </div>
  );
}
