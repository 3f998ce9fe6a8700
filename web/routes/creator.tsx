/**
 * `/u/:username` — a creator's public page (issue 16): avatar, display name,
 * @username, join date, counts (characters, favorites, chats, followers),
 * Follow (with a menu holding Block; once blocked, Unblock instead: issue
 * 35), and their active characters in Home's grid with Home's NSFW
 * setting, sorted by Trending, New (the default) or Popular. The URL takes
 * the name with or without "@", in any case; the canonical link is
 * `/u/{name}` as the person spells it. A name nobody holds is the 404 page.
 */
import { CalendarDays } from "lucide-react";
import { useState } from "react";
import { useParams } from "react-router";
import type { CatalogSort, CreatorProfile } from "../../schema/api.ts";
import { creatorPath } from "../../schema/usernames.ts";
import { Avatar } from "../components/ui/avatar.tsx";
import { Skeleton } from "../components/ui/skeleton.tsx";
import { errorStatus } from "../lib/api-client.ts";
import { useUser } from "../lib/auth.ts";
import { CATALOG_PAGE_SIZE } from "../lib/catalog-filters.ts";
import { useCatalogFilters } from "../lib/catalog-filters-context.tsx";
import { formatCount } from "../lib/format.ts";
import {
  CATALOG_PANEL_ID,
  CATALOG_TABS,
  type CatalogTab,
  CatalogToolbar,
  catalogTabId,
} from "../features/characters/components/catalog-toolbar.tsx";
import { CharacterGrid } from "../features/characters/components/character-grid.tsx";
import { useCreator } from "../features/creators/api/get-creator.ts";
import { FollowButton } from "../features/creators/components/follow-button.tsx";
import { ProfileBlockMenu, UnblockButton } from "../features/blocks/components/profile-block-actions.tsx";
import { NotFoundPage } from "./not-found.tsx";
import { useCanonicalLink } from "../lib/use-canonical-link.ts";
import { useHiddenTags } from "../lib/use-hidden-tags.ts";

const CREATOR_TABS = CATALOG_TABS.filter((t) => t.value === "trending" || t.value === "new" || t.value === "popular") as CatalogTab<
  Exclude<CatalogSort, "for-you">
>[];

export function CreatorPage() {
  const { username = "" } = useParams();
  const query = useCreator(username);

  if (query.isPending) return <CreatorSkeleton />;
  if (query.isError) {
    if (errorStatus(query.error) === 404) return <NotFoundPage />;
    return (
      <p role="alert" className="mx-auto max-w-xl px-4 py-24 text-center text-muted-foreground">
        Failed to load this creator. Please try again.
      </p>
    );
  }
  return <CreatorView profile={query.data} />;
}

function CreatorView({ profile }: { profile: CreatorProfile }) {
  const { user } = useUser();
  const { filters, setShowNsfw } = useCatalogFilters();
  const [sort, setSort] = useState<Exclude<CatalogSort, "for-you">>("new");
  useCanonicalLink(new URL(creatorPath(profile.username), window.location.origin).href);
  // Hidden tags apply here as on Home (lib/use-hidden-tags.ts).
  const { hiddenTags } = useHiddenTags();
  const [paging, setPaging] = useState({ key: "", offset: 0 });
  const key = `${sort}/${filters.showNsfw}`;
  const offset = paging.key === key ? paging.offset : 0;
  const handle = profile.username.slice(1);
  const displayName = profile.name?.trim() || handle;
  const own = user?.id === profile.id;
  const joined = new Date(profile.createdAt).toLocaleDateString("en-US", { month: "long", year: "numeric" });
  const counts: [number, string, string][] = [
    [profile.characterCount, "character", "characters"],
    [profile.favoriteCount, "favorite", "favorites"],
    [profile.chatCount, "chat", "chats"],
    [profile.followerCount, "follower", "followers"],
  ];

  return (
    <div className="mx-auto max-w-[1400px] px-4 py-6 md:px-6 md:py-10">
      <title>{`${displayName} (${profile.username}) — Fabled`}</title>
      <header className="flex flex-col gap-5 rounded-2xl border border-border bg-card p-5 sm:flex-row sm:items-center sm:p-6">
        <Avatar
          src={profile.profileImageUrl}
          fallback={[...displayName][0]?.toLocaleUpperCase() ?? "?"}
          className="size-20 sm:size-24"
          fallbackClassName="text-3xl"
        />
        <div className="min-w-0 flex-1">
          <h1 className="truncate text-2xl font-bold tracking-tight md:text-3xl">{displayName}</h1>
          <p className="truncate text-muted-foreground">{profile.username}</p>
          {profile.bio && <p className="mt-2 max-w-2xl text-sm leading-relaxed break-words whitespace-pre-line text-foreground/85">{profile.bio}</p>}
          <p className="mt-1 flex items-center gap-1.5 text-sm text-muted-foreground">
            <CalendarDays aria-hidden="true" className="size-4" /> Joined {joined}
          </p>
          <ul aria-label="Counts" className="mt-3 flex flex-wrap gap-x-5 gap-y-1 text-sm">
            {counts.map(([value, one, many]) => (
              <li key={many}>
                <span className="font-semibold tabular-nums">{formatCount(value)}</span>{" "}
                <span className="text-muted-foreground">{value === 1 ? one : many}</span>
              </li>
            ))}
          </ul>
        </div>
        {!own && profile.isBlocked === true && (
          <div className="flex flex-col items-start gap-2 sm:items-end">
            <p className="text-sm text-muted-foreground">You blocked {profile.username}.</p>
            <UnblockButton username={profile.username} className="min-w-32" />
          </div>
        )}
        {!own && profile.isBlocked !== true && (
          <div className="flex items-center gap-2">
            <FollowButton username={profile.username} isFollowing={profile.isFollowing === true} />
            {user && <ProfileBlockMenu username={profile.username} />}
          </div>
        )}
      </header>

      <section aria-labelledby="creator-characters-heading" className="mt-8 space-y-6">
        <h2 id="creator-characters-heading" className="text-xl font-semibold">
          Characters by {profile.username}
        </h2>
        <CatalogToolbar
          tabs={CREATOR_TABS}
          tab={sort}
          onTabChange={setSort}
          showNsfw={filters.showNsfw}
          onShowNsfwChange={(showNsfw) => setShowNsfw(showNsfw)}
        />
        <CharacterGrid
          id={CATALOG_PANEL_ID}
          labelledBy={catalogTabId(sort)}
          filters={{ tags: [], excludeTags: hiddenTags, search: "", showNsfw: filters.showNsfw, sort, creator: profile.username }}
          offset={offset}
          onLoadMore={() => setPaging({ key, offset: offset + CATALOG_PAGE_SIZE })}
        />
      </section>
    </div>
  );
}

function CreatorSkeleton() {
  return (
    <div className="mx-auto max-w-[1400px] px-4 py-6 md:px-6 md:py-10" role="status" aria-busy="true" aria-label="Loading creator">
      <div className="flex items-center gap-5 rounded-2xl border border-border bg-card p-6">
        <Skeleton className="size-24 rounded-full" />
        <div className="flex-1 space-y-2">
          <Skeleton className="h-7 w-48" />
          <Skeleton className="h-4 w-32" />
          <Skeleton className="h-4 w-64" />
        </div>
      </div>
    </div>
  );
}
