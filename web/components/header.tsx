/**
 * Sticky site header (SPEC.md §2 "Home"): wordmark, character search, and the
 * visitor's Sign In button or, for the signed-in, Create Character (one click
 * from anywhere, issue 26; only its icon on phones), the notifications bell
 * (issue 39) and their menu. On Home the search box drives the catalog filters
 * as one types; on other pages the text stays local to the page until Enter,
 * which opens Home with that search applied.
 */
import { Plus, Search } from "lucide-react";
import { type FormEvent, Suspense, lazy, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { LOGIN_PATH, useUser } from "../lib/auth.ts";
import { useCatalogFilters } from "../lib/catalog-filters-context.tsx";
import { catalogSearch } from "../lib/catalog-url.ts";
import { Button } from "./ui/button.tsx";
import { Input } from "./ui/input.tsx";
import { Skeleton } from "./ui/skeleton.tsx";
import { Wordmark } from "./wordmark.tsx";

// Only signed-in people see the menu, so its code (Radix dropdown) stays out
// of a visitor's first download.
const UserMenu = lazy(() => import("./user-menu.tsx").then((m) => ({ default: m.UserMenu })));

const menuPlaceholder = <Skeleton className="h-10 w-10 rounded-full sm:w-28" />;

// The bell and its socket: signed-in people only, loaded beside the menu.
const NotificationBell = lazy(() =>
  import("../features/notifications/components/notification-bell.tsx").then((m) => ({ default: m.NotificationBell })),
);
const bellPlaceholder = <Skeleton className="size-10 rounded-full" />;

export function Header() {
  const { pathname } = useLocation();
  const { user, isLoading } = useUser();
  const isHome = pathname === "/";

  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/85 backdrop-blur-md supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-16 max-w-[1600px] items-center gap-3 px-4 md:gap-6 md:px-6">
        <Wordmark />
        <div className="min-w-0 flex-1 md:max-w-xl">
          {isHome ? <HomeSearch /> : <PageSearch key={pathname} />}
        </div>
        <div className="ml-auto flex shrink-0 items-center gap-2">
          {isLoading && <Skeleton className="h-9 w-20 rounded-lg" />}
          {/* Not where the page offers it itself. */}
          {user && pathname !== "/create-character" && pathname !== "/my-characters" && (
            <Button asChild variant="outline" size="sm" className="h-10 w-10 rounded-full px-0 md:w-auto md:px-4">
              <Link to="/create-character" aria-label="Create Character">
                <Plus aria-hidden="true" />
                <span aria-hidden="true" className="hidden md:inline">
                  Create Character
                </span>
              </Link>
            </Button>
          )}
          {user && (
            <Suspense fallback={bellPlaceholder}>
              <NotificationBell />
            </Suspense>
          )}
          {user && (
            <Suspense fallback={menuPlaceholder}>
              <UserMenu user={user} />
            </Suspense>
          )}
          {!user && !isLoading && (
            <Button asChild variant="gradient" size="sm" className="h-9 px-4">
              <a href={LOGIN_PATH}>Sign In</a>
            </Button>
          )}
        </div>
      </div>
    </header>
  );
}

function SearchField(props: { value: string; onChange: (value: string) => void }) {
  return (
    <div className="relative">
      <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
      <Input
        type="search"
        aria-label="Search characters"
        placeholder="Search characters..."
        enterKeyHint="search"
        autoComplete="off"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        className="h-10 rounded-full pl-9"
      />
    </div>
  );
}

/** On Home: typing filters the grid (debounced there). */
function HomeSearch() {
  const { filters, dispatch } = useCatalogFilters();
  return (
    <form role="search" onSubmit={(e) => e.preventDefault()}>
      <SearchField value={filters.search} onChange={(search) => dispatch({ type: "setSearch", search })} />
    </form>
  );
}

/** Elsewhere: the text is this page's own until Enter opens Home with it. */
function PageSearch() {
  const [query, setQuery] = useState("");
  const { filters } = useCatalogFilters();
  const navigate = useNavigate();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!query.trim()) return;
    // Home reads its filters from its address (lib/catalog-url.ts): the others stay as they were.
    navigate(`/${catalogSearch({ ...filters, search: query })}`);
  };
  return (
    <form role="search" onSubmit={submit}>
      <SearchField value={query} onChange={setQuery} />
    </form>
  );
}
