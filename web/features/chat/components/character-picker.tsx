/**
 * Choosing characters for a cast (DESIGN.md "Group chats"): a search box
 * over the catalog with the person's favorites first
 * (api/search-cast-candidates.ts), each row a button. `chosen` rows read as
 * pressed; `unavailable` ones (already in the chat) are disabled with why.
 */
import { Heart, LoaderCircle, Search } from "lucide-react";
import { useId, useState } from "react";
import { Avatar } from "../../../components/ui/avatar.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { useDebouncedValue } from "../../../lib/use-debounced-value.ts";
import { cn } from "../../../lib/utils.ts";
import { type CastCandidate, useCastCandidates } from "../api/search-cast-candidates.ts";
import { characterInitial } from "../lib/chat-character.ts";

/** Milliseconds the search waits for typing to pause. */
const SEARCH_DEBOUNCE_MS = 250;

interface CharacterPickerProps {
  /** Ids shown as chosen (aria-pressed). */
  chosen?: ReadonlySet<number>;
  /** Ids that cannot be picked (already in the cast), with the reason shown. */
  unavailable?: ReadonlyMap<number, string>;
  /** No more can be picked: rows not chosen are disabled. */
  full?: boolean;
  /** A row was pressed. */
  onPick: (character: CastCandidate) => void;
  /** Words of the row's button, e.g. "Add" or "Choose". */
  actionLabel: (character: CastCandidate, chosen: boolean) => string;
  /** Rows are not buttons while true (an add is under way). */
  busy?: boolean;
}

export function CharacterPicker({ chosen, unavailable, full = false, onPick, actionLabel, busy = false }: CharacterPickerProps) {
  const id = useId();
  const [search, setSearch] = useState("");
  const debounced = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const query = useCastCandidates(debounced);
  const candidates = query.data?.candidates ?? [];
  return (
    <div className="flex min-h-0 flex-col gap-3">
      <div className="relative">
        <label htmlFor={`${id}-search`} className="sr-only">
          Search characters
        </label>
        <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
        <Input
          id={`${id}-search`}
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder="Search characters"
          autoComplete="off"
          className="pl-9"
        />
      </div>
      <div role="status" className="text-xs text-muted-foreground empty:hidden">
        {query.isPending && (
          <span className="flex items-center gap-1.5">
            <LoaderCircle aria-hidden="true" className="size-3.5 animate-spin" /> Searching…
          </span>
        )}
        {query.isError && "Failed to load characters. Please try again."}
        {query.isSuccess && candidates.length === 0 && "No characters match."}
      </div>
      <ul aria-label="Characters" className="-mx-1 flex max-h-72 min-h-0 flex-col gap-1 overflow-y-auto px-1" aria-busy={query.isFetching}>
        {candidates.map((character) => {
          const isChosen = chosen?.has(character.id) ?? false;
          const reason = unavailable?.get(character.id);
          const favorite = query.data?.favorites.has(character.id) ?? false;
          return (
            <li
              key={character.id}
              className={cn(
                // The whole row answers a click (the button's ::after covers it), but only the name is the
                // button's visible text: its accessible name ("Add … to the group") then holds all of it (axe
                // label-content-name-mismatch; WCAG 2.5.3 Label in Name). The creator line stays readable beside it.
                "relative flex w-full items-center gap-3 rounded-lg border border-transparent p-2 transition-colors hover:bg-surface has-[button:focus-visible]:outline-2 has-[button:focus-visible]:outline-ring has-[button:disabled]:opacity-60",
                isChosen && "border-accent-pink/60 bg-surface",
              )}
            >
              <Avatar src={character.avatarUrl} fallback={characterInitial(character.name)} className="size-9" />
              <span className="min-w-0 flex-1">
                <span className="flex items-center gap-1.5 text-sm font-medium">
                  <button
                    type="button"
                    aria-pressed={chosen ? isChosen : undefined}
                    aria-label={actionLabel(character, isChosen)}
                    disabled={busy || reason !== undefined || (full && !isChosen)}
                    onClick={() => onPick(character)}
                    className="min-w-0 cursor-pointer truncate text-left outline-none after:absolute after:inset-0 after:rounded-lg disabled:cursor-not-allowed"
                  >
                    {character.name}
                  </button>
                  {favorite && <Heart aria-label="Favorite" className="size-3.5 shrink-0 fill-accent-pink text-accent-pink" />}
                </span>
                <span className="block truncate text-xs text-muted-foreground">{reason ?? `@${character.creator}`}</span>
              </span>
              <span aria-hidden="true" className={cn("shrink-0 text-xs font-medium", isChosen ? "text-pink-300" : "text-muted-foreground")}>
                {reason ? "" : isChosen ? "Chosen" : chosen ? "Choose" : "Add"}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
