/**
 * The Edit Profile form (SPEC.md §2 "Edit Profile", §4, §5, §8): display
 * name, username with "@" auto-prefix and a live availability indicator, an
 * optional profile picture (uploaded like a character's avatar, or its URL)
 * and a short bio shown on the person's page (issue 26), checked with the
 * shared schema (the server says the same messages). Saving refreshes the
 * current user, so the header shows the new name at once.
 */
import { useQueryClient } from "@tanstack/react-query";
import { Check, LoaderCircle, X } from "lucide-react";
import { type FormEvent, useState } from "react";
import type { CurrentUser } from "../../../../schema/api.ts";
import { MAX_BIO_LENGTH, type ProfileInput, profileInputSchema } from "../../../../schema/inputs.ts";
import { AvatarField } from "../../../components/avatar-field.tsx";
import { Avatar } from "../../../components/ui/avatar.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { FormField } from "../../../components/ui/form-field.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { Textarea } from "../../../components/ui/textarea.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { errorStatus, serverErrorText } from "../../../lib/api-client.ts";
import { useDebouncedValue } from "../../../lib/use-debounced-value.ts";
import { userAvatarLetter } from "../../../lib/user-display.ts";
import { cn } from "../../../lib/utils.ts";
import { useUsernameCheck, usernameCheckQueryOptions } from "../api/check-username.ts";
import { useUpdateProfile } from "../api/update-profile.ts";
import {
  type UsernameAvailability,
  isSaveBlocked,
  shouldCheckUsername,
  usernameAvailability,
  withAtPrefix,
} from "../lib/username.ts";

/** Pause in typing before a username is checked, ms: one check per word typed, not per key. */
const USERNAME_CHECK_DEBOUNCE_MS = 300;

const USERNAME_TAKEN = "This username is already taken. Please choose another one.";

type Field = keyof ProfileFormValues;

interface ProfileFormValues {
  name: string;
  username: string;
  profileImageUrl: string;
  bio: string;
}

function initialValues(user: CurrentUser): ProfileFormValues {
  const fullName = [user.firstName, user.lastName].filter(Boolean).join(" ");
  return { name: user.name ?? fullName, username: user.username, profileImageUrl: user.profileImageUrl ?? "", bio: user.bio ?? "" };
}

/** The first message of each field the shared schema refuses. */
function validate(values: ProfileFormValues): { data: ProfileInput | null; errors: Partial<Record<Field, string>> } {
  const result = profileInputSchema.safeParse(values);
  if (result.success) return { data: result.data, errors: {} };
  const errors: Partial<Record<Field, string>> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as Field;
    errors[field] ??= issue.message;
  }
  return { data: null, errors };
}

export function ProfileForm({ user }: { user: CurrentUser }) {
  const [values, setValues] = useState(() => initialValues(user));
  // Messages show after the first save attempt, then follow every change.
  const [submitted, setSubmitted] = useState(false);
  const update = useUpdateProfile();
  const queryClient = useQueryClient();

  const checked = useDebouncedValue(values.username, USERNAME_CHECK_DEBOUNCE_MS);
  const check = useUsernameCheck(checked, shouldCheckUsername(checked, user.username));
  const availability = usernameAvailability({ username: values.username, current: user.username, checked, check });
  const blocked = isSaveBlocked(availability, values.username, user.username);
  const errors = submitted ? validate(values).errors : {};

  const set = (field: Field, value: string) => setValues((v) => ({ ...v, [field]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const { data } = validate(values);
    if (!data || blocked || update.isPending) return;
    update.mutate(data, {
      onSuccess: () => toast({ title: "Profile updated", description: "Your profile has been updated successfully." }),
      onError: (error) => {
        if (errorStatus(error) === 409) {
          // Someone took it since the last check: show the cross and block saving it again.
          queryClient.setQueryData(usernameCheckQueryOptions(data.username).queryKey, { available: false });
          toast({ title: "Username unavailable", description: USERNAME_TAKEN, variant: "destructive" });
          return;
        }
        toast({
          title: "Error",
          description: serverErrorText(error) ?? "Failed to update profile",
          variant: "destructive",
        });
      },
    });
  };

  const previewSrc = values.profileImageUrl.trim() || null;

  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      <div className="flex items-center gap-4">
        <Avatar
          src={previewSrc}
          fallback={userAvatarLetter(user)}
          alt="Profile picture preview"
          className="size-20 ring-2 ring-primary/40 ring-offset-2 ring-offset-card"
          fallbackClassName="text-3xl"
        />
        <div className="min-w-0">
          <p className="truncate text-lg font-semibold">{values.name.trim() || user.firstName || user.email}</p>
          <p className="truncate text-sm text-muted-foreground">{values.username || user.username}</p>
        </div>
      </div>

      <FormField id="profile-name" label="Display Name" hint="This is your public display name." error={errors.name}>
        {(describedBy) => (
          <Input
            id="profile-name"
            name="name"
            autoComplete="name"
            placeholder="Enter your name"
            value={values.name}
            onChange={(e) => set("name", e.target.value)}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={describedBy}
          />
        )}
      </FormField>

      <FormField id="profile-username" label="Username" error={errors.username} status={<AvailabilityText availability={availability} />}>
        {(describedBy) => (
          <div className="relative">
            <Input
              id="profile-username"
              name="username"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              placeholder="@username"
              value={values.username}
              onChange={(e) => set("username", withAtPrefix(e.target.value))}
              aria-invalid={errors.username || availability === "taken" ? true : undefined}
              aria-describedby={describedBy}
              className="pr-10"
            />
            <AvailabilityIcon availability={availability} />
          </div>
        )}
      </FormField>

      <FormField
        id="profile-bio"
        label="Bio (Optional)"
        hint="A few words about you and what you create, shown on your page."
        error={errors.bio}
        aside={
          <span className={cn("text-xs tabular-nums", values.bio.trim().length > MAX_BIO_LENGTH ? "text-red-400" : "text-muted-foreground")}>
            {values.bio.trim().length}/{MAX_BIO_LENGTH}
          </span>
        }
      >
        {(describedBy) => (
          <Textarea
            id="profile-bio"
            name="bio"
            rows={4}
            placeholder="I write cozy mysteries and grumpy lighthouse keepers."
            value={values.bio}
            onChange={(e) => set("bio", e.target.value)}
            aria-invalid={errors.bio ? true : undefined}
            aria-describedby={describedBy}
            className="resize-y"
          />
        )}
      </FormField>

      <AvatarField
        id="profile-image"
        legend="Profile picture"
        label="Profile Image URL (Optional)"
        name="profileImageUrl"
        hint="Upload a picture, or paste an https:// link to one. Leave empty to use the default avatar."
        value={values.profileImageUrl}
        onChange={(url) => set("profileImageUrl", url)}
        error={errors.profileImageUrl}
        panelHeight={220}
      />

      <Button type="submit" variant="gradient" size="lg" disabled={update.isPending || blocked} className="w-full sm:w-auto">
        {update.isPending ? "Saving..." : "Save Changes"}
      </Button>
    </form>
  );
}

/** Spinner while checking, green tick when available, red cross when taken (SPEC.md §2). */
function AvailabilityIcon({ availability }: { availability: UsernameAvailability }) {
  const base = "pointer-events-none absolute top-1/2 right-3 size-5 -translate-y-1/2";
  if (availability === "checking") {
    return <LoaderCircle aria-hidden="true" data-testid="username-checking" className={cn(base, "animate-spin text-muted-foreground")} />;
  }
  if (availability === "available") {
    return <Check aria-hidden="true" data-testid="username-available" className={cn(base, "text-emerald-400")} />;
  }
  if (availability === "taken") {
    return <X aria-hidden="true" data-testid="username-taken" className={cn(base, "text-red-400")} />;
  }
  return null;
}

/** The same state in words, for screen readers (the icon is decorative). */
function AvailabilityText({ availability }: { availability: UsernameAvailability }) {
  const text =
    availability === "checking"
      ? "Checking availability…"
      : availability === "available"
        ? "Username is available"
        : availability === "taken"
          ? "Username is taken"
          : "";
  return <p className="sr-only">{text}</p>;
}
