/**
 * The page a share link opens, `/s/{token}` (DESIGN.md "Sharing and
 * forks"): the story's title, who shared it and when, its cast (each linked
 * to the character's page), the messages as they were shown, and "Continue
 * this story" — signed in, a new chat of the reader's own holding the
 * snapshot; a visitor signs in first and comes back here. An NSFW story
 * asks the 18+ question first, as Home's NSFW switch does: a visitor who
 * confirmed in this browser, or a signed-in person who confirmed on their
 * account, reads it at once. A link that was revoked or never existed says
 * so. Signed-in readers can report the story.
 */
import { useQuery } from "@tanstack/react-query";
import { BookOpen, Flag, LoaderCircle, MessageSquarePlus, ShieldAlert } from "lucide-react";
import { lazy, Suspense, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import type { SharedChat, SharedCharacter, SharedMessage } from "../../../../schema/shares.ts";
import { MessageContent } from "../../../components/message-content.tsx";
import { Avatar } from "../../../components/ui/avatar.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Card } from "../../../components/ui/card.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { isUnauthorizedError, serverErrorText } from "../../../lib/api-client.ts";
import { loginPath, useUser } from "../../../lib/auth.ts";
import { contentSettingsQueryOptions, saveContentSettings } from "../../../lib/content-settings.ts";
import { storedAdultConfirmation, storedShowNsfw, storeNsfwChoice } from "../../../lib/nsfw-preference.ts";
import { useContinueSharedStory, useSharedStory } from "../api/shared-story.ts";

const AgeConfirmDialog = lazy(() => import("../../../components/age-confirm-dialog.tsx").then((m) => ({ default: m.AgeConfirmDialog })));
const ReportDialog = lazy(() => import("../../../components/report-dialog.tsx").then((m) => ({ default: m.ReportDialog })));

/** The first letter of a name, for an avatar without a picture. */
const initial = (name: string) => name.trim().charAt(0).toUpperCase() || "?";

function Frame({ children }: { children: React.ReactNode }) {
  return <div className="mx-auto w-full max-w-3xl px-3 py-6 sm:px-6 sm:py-10">{children}</div>;
}

export function SharedStory({ token }: { token: string }) {
  const { user, isLoading } = useUser();
  const settings = useQuery({ ...contentSettingsQueryOptions(), enabled: user !== null });
  // Whether this reader already said they are 18 or older: on their account, else in this browser.
  const confirmed = user ? settings.data?.adultConfirmedAt != null : storedAdultConfirmation() !== null;
  const [confirmedNow, setConfirmedNow] = useState(false);
  const showNsfw = confirmed || confirmedNow;
  const story = useSharedStory(token, showNsfw);

  if (story.isPending || isLoading || (user !== null && settings.isPending)) {
    return (
      <Frame>
        <div role="status" className="flex items-center justify-center gap-2 py-16 text-muted-foreground">
          <LoaderCircle aria-hidden="true" className="size-5 animate-spin" /> Loading the story…
        </div>
      </Frame>
    );
  }
  if (story.isError) return <StoryGone />;
  if (story.data.withheld) {
    return (
      <AdultsOnly
        onConfirm={() => {
          if (user) void saveContentSettings({ showNsfw: settings.data?.showNsfw ?? false, confirmAdult: true }).catch(() => undefined);
          else storeNsfwChoice(storedShowNsfw(), Date.now());
          setConfirmedNow(true);
        }}
      />
    );
  }
  return <Story token={token} story={story.data} signedIn={user !== null} />;
}

function StoryGone() {
  return (
    <Frame>
      <title>Story not found — Fabled</title>
      <Card className="flex flex-col items-center px-6 py-12 text-center">
        <BookOpen aria-hidden="true" className="mb-4 size-12 text-muted-foreground" />
        <h1 className="text-2xl font-bold">This story is not shared any more</h1>
        <p className="mt-2 text-muted-foreground">The link may have been revoked, or the chat deleted.</p>
        <Button asChild variant="gradient" className="mt-6">
          <Link to="/">Back to Home</Link>
        </Button>
      </Card>
    </Frame>
  );
}

function AdultsOnly({ onConfirm }: { onConfirm: () => void }) {
  const [asking, setAsking] = useState(true);
  return (
    <Frame>
      <title>Adult story — Fabled</title>
      <Card className="flex flex-col items-center px-6 py-12 text-center">
        <ShieldAlert aria-hidden="true" className="mb-4 size-12 text-pink-300" />
        <h1 className="text-2xl font-bold">This story is for adults (18+)</h1>
        <p className="mt-2 max-w-md text-muted-foreground">It includes NSFW characters. Read it only if you are 18 or older.</p>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row">
          <Button variant="gradient" onClick={() => setAsking(true)}>
            I am 18 or older
          </Button>
          <Button asChild variant="outline">
            <Link to="/">Back to Home</Link>
          </Button>
        </div>
      </Card>
      {asking && (
        <Suspense fallback={null}>
          <AgeConfirmDialog open onConfirm={onConfirm} onCancel={() => setAsking(false)} />
        </Suspense>
      )}
    </Frame>
  );
}

function ContinueButton({ token, signedIn, className }: { token: string; signedIn: boolean; className?: string }) {
  const navigate = useNavigate();
  const start = useContinueSharedStory(token);
  if (!signedIn) {
    return (
      <Button asChild variant="gradient" size="lg" className={className}>
        <a href={loginPath(`/s/${token}`)}>
          <MessageSquarePlus aria-hidden="true" /> Sign in to continue this story
        </a>
      </Button>
    );
  }
  return (
    <Button
      variant="gradient"
      size="lg"
      className={className}
      disabled={start.isPending}
      onClick={() =>
        start.mutate(undefined, {
          onSuccess: ({ conversationId }) => navigate(`/chat/${conversationId}`),
          onError: (error) => {
            if (isUnauthorizedError(error)) window.location.href = loginPath(`/s/${token}`);
            else toast({ title: "Could not continue", description: serverErrorText(error) ?? "Please try again.", variant: "destructive" });
          },
        })
      }
    >
      {start.isPending ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <MessageSquarePlus aria-hidden="true" />} Continue this story
    </Button>
  );
}

function Story({ token, story, signedIn }: { token: string; story: SharedChat; signedIn: boolean }) {
  const cast = new Map(story.characters.map((character) => [character.id, character]));
  const group = story.characters.length > 1;
  const [reporting, setReporting] = useState(false);
  const reportButton = useRef<HTMLButtonElement>(null);
  const date = new Date(story.createdAt).toLocaleDateString("en-US", { dateStyle: "medium" });
  return (
    <Frame>
      <title>{`${story.title} — Fabled`}</title>
      <header className="rounded-2xl border border-border bg-card/60 px-4 py-6 sm:px-8">
        <p className="text-sm font-medium text-violet-300">A shared story</p>
        <h1 className="mt-1 text-2xl font-bold break-words sm:text-3xl">{story.title}</h1>
        <p className="mt-2 text-sm text-muted-foreground">
          Shared by <span className="font-medium text-foreground">{story.sharedBy}</span> · {date} ·{" "}
          {story.messageCount === 1 ? "1 message" : `${story.messageCount} messages`}
        </p>
        <h2 className="sr-only">Cast</h2>
        <ul className="mt-5 flex flex-wrap gap-2">
          {story.characters.map((character) => (
            <li key={character.id}>
              <Link
                to={`/character/${character.id}`}
                className="flex min-w-0 items-center gap-2 rounded-full bg-surface py-1 pr-4 pl-1 text-sm font-medium hover:bg-surface/70 focus-visible:outline-2 focus-visible:outline-ring"
              >
                <Avatar src={character.avatarUrl} fallback={initial(character.name)} className="size-8" />
                <span className="max-w-48 truncate">{character.name}</span>
              </Link>
            </li>
          ))}
        </ul>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-center">
          <ContinueButton token={token} signedIn={signedIn} />
          {signedIn && (
            <Button ref={reportButton} variant="ghost" className="text-muted-foreground sm:ml-auto" onClick={() => setReporting(true)}>
              <Flag aria-hidden="true" /> Report
            </Button>
          )}
        </div>
      </header>

      <ol aria-label="Messages" className="mt-6 space-y-4">
        {story.messages.map((message, index) =>
          message.role === "user" ? (
            <li key={index} className="flex justify-end">
              <div className="flex max-w-[85%] flex-col items-end gap-1 sm:max-w-[75%]">
                <p className="px-1 text-xs font-semibold text-pink-200">{message.authorName}</p>
                <div className="rounded-2xl rounded-br-sm bg-gradient-to-br from-primary-strong to-[#a21caf] px-4 py-2.5 text-[15px] leading-relaxed break-words whitespace-pre-wrap text-white">
                  <MessageContent content={message.content} tone="user" />
                </div>
              </div>
            </li>
          ) : message.kind === "image" && message.imageUrl ? (
            <SharedPicture key={index} message={message} speaker={cast.get(message.characterId ?? -1)} showName={group || index === 0} />
          ) : (
            <SpeakerMessage key={index} speaker={cast.get(message.characterId ?? -1)} name={message.authorName} showName={group || index === 0}>
              <MessageContent content={message.content} tone="character" />
            </SpeakerMessage>
          ),
        )}
      </ol>

      <div className="mt-10 flex flex-col items-center gap-3 rounded-2xl border border-border bg-card/60 px-4 py-8 text-center">
        <p className="text-lg font-semibold">What happens next is up to you.</p>
        <p className="text-sm text-muted-foreground">Continue from here in a chat of your own; the shared story stays as it is.</p>
        <ContinueButton token={token} signedIn={signedIn} className="mt-2" />
      </div>
      {reporting && (
        <Suspense fallback={null}>
          <ReportDialog
            target={{ targetType: "share", targetId: token }}
            subject={`"${story.title}"`}
            onClose={() => setReporting(false)}
            returnFocusTo={reportButton.current}
          />
        </Suspense>
      )}
    </Frame>
  );
}

function SpeakerMessage({ speaker, name, showName, children }: { speaker: SharedCharacter | undefined; name: string; showName: boolean; children: React.ReactNode }) {
  return (
    <li className="flex items-start gap-2.5">
      <Avatar src={speaker?.avatarUrl ?? null} fallback={initial(name)} className="mt-0.5 size-8" />
      <article aria-label={name} className="flex min-w-0 max-w-[calc(100%-2.75rem)] flex-col items-start gap-1 sm:max-w-[75%]">
        {showName && <p className="px-1 text-xs font-semibold text-violet-200">{name}</p>}
        <div className="rounded-2xl rounded-tl-sm bg-surface px-4 py-2.5 text-[15px] leading-relaxed break-words whitespace-pre-wrap text-foreground">{children}</div>
      </article>
    </li>
  );
}

/**
 * A picture imagined in the chat, as the chat shows one: beside its
 * speaker, at its own proportions from the start (`width`/`height`, so
 * nothing below moves when it arrives), loaded only when scrolled near, its
 * prompt as its alt text and caption; it opens full size in a new tab.
 */
function SharedPicture({ message, speaker, showName }: { message: SharedMessage; speaker: SharedCharacter | undefined; showName: boolean }) {
  const alt = message.prompt ? `Picture: ${message.prompt}` : "Picture of the scene";
  return (
    <li className="flex items-start gap-2.5" data-shared-picture>
      <Avatar src={speaker?.avatarUrl ?? null} fallback={initial(message.authorName)} className="mt-0.5 size-8" />
      <figure aria-label={`${message.authorName}: picture`} className="flex min-w-0 max-w-[calc(100%-2.75rem)] flex-col items-start gap-1 sm:max-w-[60%]">
        {showName && <p className="px-1 text-xs font-semibold text-violet-200">{message.authorName}</p>}
        <a
          href={message.imageUrl}
          target="_blank"
          rel="noopener"
          className="block overflow-hidden rounded-2xl rounded-tl-sm border border-border focus-visible:outline-2 focus-visible:outline-ring"
        >
          <img
            src={message.imageUrl}
            alt={alt}
            width={message.width || undefined}
            height={message.height || undefined}
            loading="lazy"
            decoding="async"
            className="block h-auto w-full max-w-sm bg-surface"
          />
        </a>
        {message.prompt && <figcaption className="line-clamp-2 px-1 text-xs text-muted-foreground">{message.prompt}</figcaption>}
      </figure>
    </li>
  );
}
