import { Sparkles } from "lucide-react";
import { Link } from "react-router";
import type { CharacterSummary } from "../../../../schema/api.ts";
import { Badge } from "../../../components/ui/badge.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { tagHref } from "../../../lib/catalog-url.ts";
import { visibleTags } from "../lib/visible-tags.ts";
import { CreatorLink } from "../../creators/components/creator-link.tsx";
import { CharacterAvatar } from "./character-avatar.tsx";
import { CharacterFavoriteButton } from "./character-favorite-button.tsx";
import { CommentCount, Rating, ViewCount } from "./character-stats.tsx";

/** Tags shown on a Home card before "+N" (SPEC.md §9). */
const CARD_TAG_LIMIT = 4;

interface CharacterCardProps {
  character: CharacterSummary;
  /** Load the avatar eagerly (first row). */
  priority?: boolean;
}

/**
 * A character in the Home grid (SPEC.md §2 "Character card"). The whole card
 * opens /character/{id} through a stretched link on the name, so the favorite
 * button is a sibling of the link, not nested in it.
 */
export function CharacterCard({ character, priority }: CharacterCardProps) {
  const { shown: shownTags, hidden: hiddenTags } = visibleTags(character.tags, CARD_TAG_LIMIT);
  return (
    <article className="group relative flex flex-col overflow-hidden rounded-2xl border border-border bg-card transition duration-200 focus-within:border-primary/60 hover:-translate-y-0.5 hover:border-primary/50 hover:shadow-xl hover:shadow-primary/10">
      <div className="relative aspect-[3/4] overflow-hidden bg-surface">
        <CharacterAvatar
          id={character.id}
          name={character.name}
          avatarUrl={character.avatarUrl}
          priority={priority}
          className="transition-transform duration-300 group-hover:scale-[1.03]"
        />
        <div aria-hidden="true" className="pointer-events-none absolute inset-x-0 bottom-0 h-1/3 bg-gradient-to-t from-card to-transparent" />
        <Badge variant="glass" className="absolute right-2 bottom-2 px-2">
          <Rating value={character.rating} />
        </Badge>
        <div className="absolute top-2 right-2 left-2 flex flex-wrap items-start gap-1.5">
          <Badge variant="glass">
            <Sparkles aria-hidden="true" /> For You
          </Badge>
          {character.isNsfw && (
            <Badge variant="nsfw" className="ml-auto">
              NSFW
            </Badge>
          )}
        </div>
      </div>

      <div className="flex flex-1 flex-col gap-2 p-3 pt-1">
        <div className="min-w-0">
          <h3 className="truncate text-sm leading-snug font-semibold sm:text-base">
            <Link
              to={`/character/${character.id}`}
              className="rounded-sm outline-none after:absolute after:inset-0 after:rounded-2xl after:content-[''] focus-visible:after:outline-2 focus-visible:after:-outline-offset-2 focus-visible:after:outline-ring"
            >
              {character.name}
            </Link>
          </h3>
          <p className="truncate text-xs text-muted-foreground">
            <CreatorLink creator={character.creator} username={character.creatorUsername} />
          </p>
        </div>
        <p className="line-clamp-2 text-sm leading-snug text-foreground/80">{character.description}</p>
        {shownTags.length > 0 && (
          <ul aria-label="Tags" className="flex flex-wrap gap-1">
            {shownTags.map((tag) => (
              <li key={tag} className="max-w-full truncate">
                {/* Above the card's stretched link: Home filtered by this tag. */}
                <Link
                  to={tagHref(tag)}
                  className="relative z-10 block truncate rounded-md bg-surface px-1.5 py-0.5 text-[11px] text-muted-foreground transition-colors hover:bg-surface/70 hover:text-foreground focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring"
                >
                  {tag}
                </Link>
              </li>
            ))}
            {hiddenTags > 0 && (
              <li className="rounded-md bg-surface px-1.5 py-0.5 text-[11px] text-muted-foreground">
                <span aria-hidden="true">+{hiddenTags}</span>
                <span className="sr-only">and {hiddenTags} more</span>
              </li>
            )}
          </ul>
        )}
        <div className="mt-auto flex flex-wrap items-center gap-x-3 gap-y-1 border-t border-border pt-2 text-xs text-muted-foreground">
          <ViewCount value={character.viewCount} />
          <CharacterFavoriteButton character={character} surface="grid" />
          <CommentCount value={character.commentCount} />
        </div>
      </div>
    </article>
  );
}

export function CharacterCardSkeleton() {
  return (
    <div aria-hidden="true" className="flex flex-col overflow-hidden rounded-2xl border border-border bg-card">
      <Skeleton className="aspect-[3/4] rounded-none" />
      <div className="space-y-2 p-3">
        <Skeleton className="h-4 w-2/3" />
        <Skeleton className="h-3 w-1/3" />
        <Skeleton className="h-3 w-full" />
        <Skeleton className="h-3 w-4/5" />
        <div className="flex gap-1 pt-1">
          <Skeleton className="h-4 w-12" />
          <Skeleton className="h-4 w-10" />
          <Skeleton className="h-4 w-14" />
        </div>
      </div>
    </div>
  );
}
