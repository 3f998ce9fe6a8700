/**
 * One of the person's own characters on My Characters (SPEC.md §2): avatar,
 * "Inactive" (the card dimmed) and "NSFW" badges, name, description, the
 * first 3 tags plus "+N", how it is doing (views, favorites, chats), and
 * edit, toggle-active, download and delete.
 * Moderation (issue "Trust and safety"): a removed character says "Removed
 * by moderation", is dimmed, and its toggle is closed (the server refuses to
 * reactivate it); one flagged by screening says "Under review".
 */
import { Eye, EyeOff, Heart, MessagesSquare, Pencil, ShieldAlert, ShieldQuestion, Trash2 } from "lucide-react";
import { Link } from "react-router";
import type { OwnCharacter } from "../../../../schema/api.ts";
import { Badge } from "../../../components/ui/badge.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { IconTooltip, TooltipProvider } from "../../../components/ui/tooltip.tsx";
import { cn } from "../../../lib/utils.ts";
import { visibleTags } from "../lib/visible-tags.ts";
import { CharacterAvatar } from "./character-avatar.tsx";
import { Stat } from "./character-stats.tsx";
import { DownloadCardMenu } from "./download-card-menu.tsx";

/** Tags shown on a My Characters card before "+N" (SPEC.md §9). */
export const MY_CARD_TAG_LIMIT = 3;

interface MyCharacterCardProps {
  character: OwnCharacter;
  onToggleActive: () => void;
  onDelete: () => void;
  /** While its toggle is being saved. */
  toggling: boolean;
}

export function MyCharacterCard({ character, onToggleActive, onDelete, toggling }: MyCharacterCardProps) {
  const { shown, hidden } = visibleTags(character.tags, MY_CARD_TAG_LIMIT);
  const removed = character.moderationStatus === "removed";
  const inactive = !character.isActive || removed;
  const removedNoteId = `removed-note-${character.id}`;
  const stats = [
    { icon: Eye, value: character.viewCount, one: "view", many: "views" },
    { icon: Heart, value: character.favoriteCount, one: "favorite", many: "favorites" },
    { icon: MessagesSquare, value: character.chatCount, one: "chat", many: "chats" },
  ];
  return (
    <article
      aria-label={character.name}
      className={cn(
        "flex h-full flex-col overflow-hidden rounded-2xl border bg-card transition-colors",
        // Dimmed: the picture fades; the texts keep their contrast.
        inactive ? "border-dashed border-border bg-card/60" : "border-border hover:border-primary/50",
      )}
    >
      <div className="relative aspect-[16/10] overflow-hidden bg-surface sm:aspect-[4/3]">
        <CharacterAvatar
          id={character.id}
          name={character.name}
          avatarUrl={character.avatarUrl}
          className={cn(inactive && "opacity-40 grayscale")}
        />
        <div className="absolute top-2 right-2 left-2 flex flex-wrap items-start gap-1.5">
          {removed ? (
            <Badge variant="glass" className="border-red-400/40 text-red-100">
              <ShieldAlert aria-hidden="true" /> Removed by moderation
            </Badge>
          ) : (
            inactive && (
              <Badge variant="glass" className="border-white/20">
                <EyeOff aria-hidden="true" /> Inactive
              </Badge>
            )
          )}
          {character.moderationStatus === "flagged" && (
            <Badge variant="glass" className="border-white/20" title="Our team is checking this character. It stays listed meanwhile.">
              <ShieldQuestion aria-hidden="true" /> Under review
            </Badge>
          )}
          {character.isNsfw && (
            <Badge variant="nsfw" className="ml-auto">
              NSFW
            </Badge>
          )}
        </div>
      </div>

      <div className="flex flex-1 flex-col gap-2 p-4">
        <h2 className="truncate text-base font-semibold">
          <Link to={`/character/${character.id}`} className="rounded-sm hover:underline underline-offset-4">
            {character.name}
          </Link>
        </h2>
        <p className="line-clamp-2 text-sm leading-snug text-foreground/80">{character.description}</p>
        {removed && (
          <p id={removedNoteId} className="text-xs leading-snug text-red-300">
            Removed by moderation; it cannot be reactivated.
          </p>
        )}
        {shown.length > 0 && (
          <ul aria-label="Tags" className="flex flex-wrap gap-1">
            {shown.map((tag) => (
              <li key={tag} className="max-w-full truncate rounded-md bg-surface px-1.5 py-0.5 text-[11px] text-muted-foreground">
                {tag}
              </li>
            ))}
            {hidden > 0 && (
              <li className="rounded-md bg-surface px-1.5 py-0.5 text-[11px] text-muted-foreground">
                <span aria-hidden="true">+{hidden}</span>
                <span className="sr-only">and {hidden} more</span>
              </li>
            )}
          </ul>
        )}
        <ul aria-label="Statistics" className="mt-auto flex flex-wrap items-center gap-x-4 gap-y-1 pt-1 text-xs text-muted-foreground">
          {stats.map((stat) => (
            <li key={stat.one}>
              <Stat icon={stat.icon} value={stat.value} label={stat.value === 1 ? stat.one : stat.many} showLabel />
            </li>
          ))}
        </ul>
        <TooltipProvider>
          <div className="flex items-center gap-1 border-t border-border pt-3">
            <Button asChild variant="secondary" size="sm" className="mr-auto">
              <Link to={`/edit-character/${character.id}`} aria-label={`Edit ${character.name}`}>
                <Pencil aria-hidden="true" /> Edit
              </Link>
            </Button>
            <IconTooltip
              grouped
              label={
                removed
                  ? "Removed by moderation; it cannot be reactivated"
                  : inactive
                    ? "Activate: list it on Home again"
                    : "Deactivate: hide it from Home and search"
              }
            >
              <Button
                variant="ghost"
                size="icon"
                // Removed: still focusable (aria-disabled, not disabled) so keyboard and screen reader users reach the reason.
                onClick={removed ? undefined : onToggleActive}
                disabled={toggling}
                aria-disabled={removed || undefined}
                aria-describedby={removed ? removedNoteId : undefined}
                aria-label={`${inactive ? "Activate" : "Deactivate"} ${character.name}`}
                className={cn(removed && "cursor-not-allowed opacity-50 hover:bg-transparent")}
              >
                {inactive ? <Eye aria-hidden="true" /> : <EyeOff aria-hidden="true" />}
              </Button>
            </IconTooltip>
            <DownloadCardMenu character={character} variant="icon" groupedTooltip />
            <IconTooltip grouped label="Delete">
              <Button
                variant="ghost"
                size="icon"
                onClick={onDelete}
                aria-label={`Delete ${character.name}`}
                className="text-red-300 hover:bg-red-950/60 hover:text-red-200"
              >
                <Trash2 aria-hidden="true" />
              </Button>
            </IconTooltip>
          </div>
        </TooltipProvider>
      </div>
    </article>
  );
}

export function MyCharacterCardSkeleton() {
  return (
    <div aria-hidden="true" className="flex flex-col overflow-hidden rounded-2xl border border-border bg-card">
      <Skeleton className="aspect-[16/10] rounded-none sm:aspect-[4/3]" />
      <div className="space-y-2 p-4">
        <Skeleton className="h-5 w-2/3" />
        <Skeleton className="h-3 w-full" />
        <Skeleton className="h-3 w-4/5" />
        <div className="flex gap-1 pt-1">
          <Skeleton className="h-4 w-12" />
          <Skeleton className="h-4 w-10" />
          <Skeleton className="h-4 w-14" />
        </div>
        <Skeleton className="h-3 w-3/5" />
        <div className="flex gap-2 border-t border-border pt-3">
          <Skeleton className="h-8 w-16" />
          <Skeleton className="ml-auto size-10" />
          <Skeleton className="size-10" />
          <Skeleton className="size-10" />
        </div>
      </div>
    </div>
  );
}
