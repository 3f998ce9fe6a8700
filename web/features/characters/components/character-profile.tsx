/**
 * The character page body (SPEC.md §2 "Character detail"): avatar, name,
 * creator, a fork's credit, long description, counts (forks too), tags,
 * Start Chat (and what the page adds beside it), Fork, Download card, the card texts, and below them whatever
 * the page adds (the comments). Its creator gets Edit Character; anyone else may report it; its
 * creator is told when moderation removed it (only they still see it).
 */
import { ArrowLeft, LoaderCircle, MessageSquareText, Pencil, ShieldAlert } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { Character } from "../../../../schema/api.ts";
import { MessageContent } from "../../../components/message-content.tsx";
import { ReportButton } from "../../../components/report-dialog.tsx";
import { Badge, badgeVariants } from "../../../components/ui/badge.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { useUser } from "../../../lib/auth.ts";
import { useCatalogFilters } from "../../../lib/catalog-filters-context.tsx";
import { tagHref } from "../../../lib/catalog-url.ts";
import { cn } from "../../../lib/utils.ts";
import { fillMacros } from "../lib/macros.ts";
import { CharacterAvatar } from "./character-avatar.tsx";
import { CharacterFavoriteButton } from "./character-favorite-button.tsx";
import { DownloadCardMenu } from "./download-card-menu.tsx";
import { CommentCountLink, Rating, ViewCount } from "./character-stats.tsx";
import { CreatorLink } from "../../creators/components/creator-link.tsx";
import { ForkButton, ForkCount, ForkCredit } from "./character-forks.tsx";

interface CharacterProfileProps {
  character: Character;
  onStartChat: () => void;
  /** The conversation is being created: Start Chat waits. */
  startingChat?: boolean;
  /** More ways into a chat, shown after Start Chat (the page adds "Import chat"). */
  chatActions?: ReactNode;
  /** id of the comments section the comment count scrolls to. */
  commentsId: string;
  /** Shown below the cards. */
  children?: ReactNode;
}

export function CharacterProfile({ character, onStartChat, startingChat = false, chatActions, commentsId, children }: CharacterProfileProps) {
  const about = character.longDescription?.trim() || character.description;
  const { user, isLoading: userLoading } = useUser();
  // Hidden until it is known who this is, so the creator never sees it flash.
  const reportable = !userLoading && user?.id !== character.creatorId;
  const ownCharacter = user !== null && user.id === character.creatorId;
  // Signed in, and allowed by the creator (who may always copy their own); a removed character forks nothing.
  const forkable = user !== null && (character.allowForks || ownCharacter) && character.moderationStatus !== "removed";
  // Personality always; Scenario and the greeting only when the card has them.
  // The greeting is a chat message: its *actions* look as they will in the chat.
  const halfCards = [
    { title: "Personality", text: character.personality, roleplay: false },
    ...(character.scenario ? [{ title: "Scenario", text: character.scenario, roleplay: false }] : []),
    ...(character.greeting ? [{ title: "First Message", text: character.greeting, roleplay: true }] : []),
  ];
  return (
    <div className="relative">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 -top-6 h-80 bg-gradient-to-b from-primary/15 via-pink-600/5 to-transparent blur-2xl"
      />
      <div className="relative mx-auto max-w-6xl px-4 py-6 md:px-6 md:py-8">
        <BackLink>Back to Characters</BackLink>
        {character.moderationStatus === "removed" && (
          <p
            role="status"
            className="mt-4 flex items-start gap-2 rounded-xl border border-red-900/70 bg-red-950/40 px-4 py-3 text-sm text-red-100"
          >
            <ShieldAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-red-300" />
            Removed by moderation. Only you can see this character; it cannot be reactivated.
          </p>
        )}

        <section className="mt-6 grid gap-6 md:grid-cols-[minmax(0,320px)_1fr] md:gap-10">
          <div className="relative mx-auto aspect-[3/4] w-full max-w-[240px] overflow-hidden sm:max-w-[320px] rounded-2xl border border-border bg-surface shadow-2xl shadow-primary/10">
            <CharacterAvatar
              id={character.id}
              name={character.name}
              avatarUrl={character.avatarUrl}
              priority
              initialClassName="text-8xl"
            />
            {character.isNsfw && (
              <Badge variant="nsfw" className="absolute top-3 right-3">
                NSFW
              </Badge>
            )}
          </div>

          <div className="flex min-w-0 flex-col gap-4">
            <div>
              <h1 className="text-3xl font-bold tracking-tight break-words md:text-4xl">{character.name}</h1>
              <p className="mt-1 text-muted-foreground">
                <CreatorLink prefix="by " creator={character.creator} username={character.creatorUsername} />
              </p>
              <ForkCredit forkedFrom={character.forkedFrom} className="mt-1" />
            </div>
            <p className="text-base leading-relaxed whitespace-pre-line text-foreground/90">{about}</p>

            <div className="flex flex-wrap items-center gap-x-5 gap-y-2 text-sm text-muted-foreground [&_svg]:!size-4">
              <ViewCount value={character.viewCount} />
              <CharacterFavoriteButton character={character} surface="page" />
              <CommentCountLink value={character.commentCount} targetId={commentsId} />
              <Rating value={character.rating} />
              {character.forkCount > 0 && <ForkCount character={character} />}
              {reportable && (
                <ReportButton
                  target={{ targetType: "character", targetId: character.id }}
                  subject={character.name}
                  label={`Report ${character.name}`}
                  className="-my-1 h-8 px-2 text-sm"
                />
              )}
            </div>

            {character.tags.length > 0 && (
              <ul aria-label="Tags" className="flex flex-wrap gap-2">
                {character.tags.map((tag) => (
                  <li key={tag}>
                    <Link
                      to={tagHref(tag)}
                      className={cn(
                        badgeVariants({ variant: "secondary" }),
                        "px-3 py-1 text-sm transition-colors hover:bg-primary/25 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring",
                      )}
                    >
                      {tag}
                    </Link>
                  </li>
                ))}
              </ul>
            )}

            <div data-testid="character-actions" className="flex flex-col gap-3 pt-2 sm:flex-row sm:flex-wrap">
              <Button
                variant="gradient"
                size="lg"
                onClick={onStartChat}
                disabled={startingChat}
                aria-busy={startingChat}
                className="w-full sm:w-auto sm:min-w-48"
              >
                {startingChat ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <MessageSquareText aria-hidden="true" />}
                Start Chat
              </Button>
              {chatActions}
              {ownCharacter && (
                <Button asChild variant="outline" size="lg" className="w-full sm:w-auto">
                  <Link to={`/edit-character/${character.id}`}>
                    <Pencil aria-hidden="true" /> Edit Character
                  </Link>
                </Button>
              )}
              {forkable && <ForkButton character={character} className="w-full sm:w-auto" />}
              <DownloadCardMenu character={character} className="w-full sm:w-auto" />
            </div>
          </div>
        </section>

        <div className="mt-10 grid gap-6 md:grid-cols-2">
          {halfCards.map((card, index) => (
            <TextCard
              key={card.title}
              title={card.title}
              // An odd card out takes the whole row rather than leave a hole beside it.
              className={cn(index === halfCards.length - 1 && halfCards.length % 2 === 1 && "md:col-span-2")}
              roleplay={card.roleplay}
            >
              {fillMacros(card.text, character.name)}
            </TextCard>
          ))}
          {character.exampleConversation && (
            <TextCard title="Example Conversation" className="md:col-span-2" mono roleplay>
              {fillMacros(character.exampleConversation, character.name)}
            </TextCard>
          )}
        </div>

        {children}
      </div>
    </div>
  );
}

/** A titled card of one card text; `roleplay` texts get the chat's action styling (MessageContent). */
function TextCard({
  title,
  children,
  className,
  mono,
  roleplay = false,
}: {
  title: string;
  children: string;
  className?: string;
  mono?: boolean;
  roleplay?: boolean;
}) {
  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        <p
          className={cn(
            "leading-relaxed whitespace-pre-wrap break-words text-foreground/85",
            mono && "rounded-xl bg-background/60 p-4 text-sm",
          )}
        >
          {roleplay ? <MessageContent content={children} tone="character" /> : children}
        </p>
      </CardContent>
    </Card>
  );
}

/** Back to Home as it was last shown (its filters are in its address). */
export function BackLink({ children }: { children: ReactNode }) {
  const { homeHref } = useCatalogFilters();
  return (
    <Link
      to={homeHref}
      className="inline-flex items-center gap-2 rounded-md text-sm text-muted-foreground transition-colors hover:text-foreground"
    >
      <ArrowLeft aria-hidden="true" className="size-4" />
      {children}
    </Link>
  );
}

export function CharacterProfileSkeleton() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-6 md:px-6 md:py-8" role="status" aria-busy="true" aria-label="Loading character">
      <Skeleton className="h-5 w-40" />
      <div className="mt-6 grid gap-6 md:grid-cols-[minmax(0,320px)_1fr] md:gap-10">
        <Skeleton className="mx-auto aspect-[3/4] w-full max-w-[240px] rounded-2xl sm:max-w-[320px]" />
        <div className="space-y-4">
          <Skeleton className="h-10 w-2/3" />
          <Skeleton className="h-4 w-32" />
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-4 w-3/4" />
          <div className="flex gap-2">
            <Skeleton className="h-6 w-16 rounded-full" />
            <Skeleton className="h-6 w-20 rounded-full" />
            <Skeleton className="h-6 w-14 rounded-full" />
          </div>
          <Skeleton className="h-11 w-48" />
        </div>
      </div>
      <div className="mt-10 grid gap-6 md:grid-cols-2">
        <Skeleton className="h-40 rounded-2xl" />
        <Skeleton className="h-40 rounded-2xl" />
      </div>
    </div>
  );
}
