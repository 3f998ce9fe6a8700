/**
 * The page an invitation link opens, `/join/{token}` (DESIGN.md "Shared
 * rooms"): the chat's title, its cast and its owner, "Play as" (one of the
 * person's personas, or none: the room's model, which the owner chooses,
 * is sent the persona — issue 42) and "Join chat". A visitor signs in first (`/api/login?returnTo=/join/{token}` brings them
 * back here). A link that no longer works (unknown, revoked, expired) says
 * so; a full room (409) says that, and so does a link made before the
 * owner removed this person (403). Joining opens the chat.
 */
import { LinkIcon, LoaderCircle, Users } from "lucide-react";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { castTitle, type InvitePreview } from "../../../../schema/chat.ts";
import { Avatar } from "../../../components/ui/avatar.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Card } from "../../../components/ui/card.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { errorStatus, isUnauthorizedError, serverErrorText } from "../../../lib/api-client.ts";
import { LOGIN_PATH, useUser } from "../../../lib/auth.ts";
import { usePersonas } from "../../../lib/personas-query.ts";
import { userPlayName } from "../../../lib/user-display.ts";
import { useInvite, useJoinByInvite } from "../api/invites.ts";
import { characterInitial } from "../lib/chat-character.ts";
import { personaNote } from "../lib/persona-note.ts";

/** The sign-in URL that comes back to this invitation. */
export function signInToJoinUrl(token: string): string {
  return `${LOGIN_PATH}?returnTo=${encodeURIComponent(`/join/${token}`)}`;
}

export function JoinInvite({ token }: { token: string }) {
  const invite = useInvite(token);
  if (invite.isPending) {
    return (
      <JoinFrame>
        <div role="status" className="flex items-center justify-center gap-2 py-10 text-muted-foreground">
          <LoaderCircle aria-hidden="true" className="size-5 animate-spin" /> Loading the invitation…
        </div>
      </JoinFrame>
    );
  }
  if (invite.isError) return <InvalidInvite />;
  return <InviteCard token={token} invite={invite.data} />;
}

function JoinFrame({ children }: { children: React.ReactNode }) {
  return <div className="mx-auto w-full max-w-lg px-4 py-10 sm:py-16">{children}</div>;
}

function InvalidInvite() {
  return (
    <JoinFrame>
      <title>Invitation not valid — Fabled</title>
      <Card className="flex flex-col items-center px-6 py-12 text-center">
        <LinkIcon aria-hidden="true" className="mb-4 size-12 text-muted-foreground" />
        <h1 className="text-2xl font-bold">This invitation link is not valid any more</h1>
        <p className="mt-2 text-muted-foreground">It may have expired or been revoked. Ask the person who sent it for a new one.</p>
        <Button asChild variant="gradient" className="mt-6">
          <Link to="/">Back to Home</Link>
        </Button>
      </Card>
    </JoinFrame>
  );
}

/** The "Play as" value of joining with no persona (persona ids are UUIDs). */
const NO_PERSONA = "none";

function InviteCard({ token, invite }: { token: string; invite: InvitePreview }) {
  const { user, isLoading } = useUser();
  const navigate = useNavigate();
  const join = useJoinByInvite(token);
  const personas = usePersonas(user !== null);
  const [playAs, setPlayAs] = useState<string | null>(null);
  const list = personas.data ?? [];
  // Their default persona unless they chose otherwise; none when they have none.
  const chosen = playAs ?? list.find((p) => p.isDefault)?.id ?? NO_PERSONA;
  const title = invite.title ?? castTitle(invite.characters.map((c) => c.name));
  const onJoin = () =>
    join.mutate(chosen === NO_PERSONA ? null : chosen, {
      onSuccess: ({ conversationId }) => navigate(`/chat/${conversationId}`),
      onError: (error) => {
        if (isUnauthorizedError(error)) window.location.href = signInToJoinUrl(token);
        else if (errorStatus(error) === 403) toast({ title: "You cannot join by this link", description: serverErrorText(error) ?? "Ask the chat's owner for a new invitation link.", variant: "destructive" });
        else if (errorStatus(error) === 409) toast({ title: "This chat is full", description: serverErrorText(error) ?? "A chat holds at most 10 people.", variant: "destructive" });
        else toast({ title: "Could not join", description: serverErrorText(error) ?? "This invitation link is not valid any more.", variant: "destructive" });
      },
    });

  return (
    <JoinFrame>
      <title>{`Join ${title} — Fabled`}</title>
      <Card className="px-5 py-8 sm:px-8">
        <p className="text-center text-sm font-medium text-violet-300">You are invited to a shared chat</p>
        <h1 className="mt-2 text-center text-2xl font-bold break-words">{title}</h1>
        <div className="mt-4 flex items-center justify-center gap-2 text-sm text-muted-foreground">
          <Avatar src={invite.owner.avatarUrl} fallback={characterInitial(invite.owner.name)} className="size-7" />
          <span>
            Hosted by <span className="font-medium text-foreground">{invite.owner.name}</span>
          </span>
        </div>
        <h2 className="mt-8 text-sm font-semibold text-muted-foreground">Cast</h2>
        <ul className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3">
          {invite.characters.map((character) => (
            <li key={character.id} className="flex min-w-0 items-center gap-2 rounded-xl bg-surface px-3 py-2">
              <Avatar src={character.avatarUrl} fallback={characterInitial(character.name)} className="size-9" />
              <span className="truncate text-sm font-medium">{character.name}</span>
            </li>
          ))}
        </ul>
        <p className="mt-6 flex items-center gap-2 text-sm text-muted-foreground">
          <Users aria-hidden="true" className="size-4" />
          {invite.people === 1 ? "1 person" : `${invite.people} people`} in this chat
        </p>
        {user && (
          <div className="mt-6">
            <label htmlFor="join-persona" className="text-sm font-semibold text-muted-foreground">
              Play as
            </label>
            <select
              id="join-persona"
              value={chosen}
              onChange={(event) => setPlayAs(event.target.value)}
              disabled={personas.isPending}
              aria-describedby="join-persona-note"
              className="mt-2 h-10 w-full rounded-md border border-input bg-surface px-3 text-sm focus-visible:outline-2 focus-visible:outline-ring"
            >
              {list.map((persona) => (
                <option key={persona.id} value={persona.id}>
                  {persona.isDefault ? `${persona.name} (default persona)` : persona.name}
                </option>
              ))}
              <option value={NO_PERSONA}>No persona: just your name ({userPlayName(user)})</option>
            </select>
            <p id="join-persona-note" className="mt-2 text-xs text-muted-foreground">
              {personaNote(invite.owner.name)}
            </p>
          </div>
        )}
        <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:justify-center">
          {user ? (
            <Button variant="gradient" size="lg" disabled={join.isPending} onClick={onJoin}>
              {join.isPending && <LoaderCircle aria-hidden="true" className="animate-spin" />} Join chat
            </Button>
          ) : (
            <Button asChild variant="gradient" size="lg" aria-disabled={isLoading}>
              <a href={signInToJoinUrl(token)}>Sign in to join</a>
            </Button>
          )}
          <Button asChild variant="outline" size="lg">
            <Link to="/">Not now</Link>
          </Button>
        </div>
        <p className="mt-6 text-center text-xs text-muted-foreground">
          The link works until {new Date(invite.expiresAt).toLocaleDateString("en-US", { dateStyle: "medium" })}.
        </p>
      </Card>
    </JoinFrame>
  );
}
