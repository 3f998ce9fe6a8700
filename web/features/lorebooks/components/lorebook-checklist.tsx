/**
 * Which of the person's lorebooks apply, for the studio's "Lorebooks"
 * section (a character's books) and the chat menu's "Lorebooks" dialog (a
 * chat's): every standalone book of theirs (`GET /api/lorebooks`; a
 * character's own book belongs to that character and is left out) with a
 * checkbox, its entry count and, once ticked, its place ("Applies 1st").
 * A ticked book goes last; "Move earlier"/"Move later" change the order,
 * which is the order the room scans the books in (decision 0033: the
 * earlier book's entries win when the budget runs short). Rows stay where
 * they are while the order changes, so the focus never jumps. At most
 * LOREBOOK_LIMITS.attached books (the server's limit); a link goes to
 * /lorebooks to make or edit one (the list refetches when the person comes
 * back to the tab). Controlled: `value` is the ordered ids.
 */
import { ArrowDown, ArrowUp, BookOpen, ExternalLink } from "lucide-react";
import { useId } from "react";
import { Link } from "react-router";
import { LOREBOOK_LIMITS } from "../../../../schema/lorebook/book.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { cn } from "../../../lib/utils.ts";
import { useLorebooks } from "../api/lorebooks.ts";
import { moveAttached, toggleAttached } from "../lib/attached.ts";

interface LorebookChecklistProps {
  /** The attached books' ids, first applying first. */
  value: string[];
  onChange: (ids: string[]) => void;
  /** The group's name (shown, or for screen readers only when `hideLegend`). */
  legend: string;
  /** One line under the legend: what the books are for here. */
  hint: string;
  hideLegend?: boolean;
  disabled?: boolean;
  /** Open /lorebooks in a new tab (the studio: its form keeps what the person has not saved yet). */
  newTab?: boolean;
}

const entries = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "entry" : "entries"}`;

/** 1 → "1st", 2 → "2nd", 3 → "3rd", 4 → "4th" (English ordinals up to LOREBOOK_LIMITS.attached and beyond). */
function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[n % 10] ?? "th";
  return `${n}${suffix}`;
}

export function LorebookChecklist({ value, onChange, legend, hint, hideLegend = false, disabled = false, newTab = false }: LorebookChecklistProps) {
  const id = useId();
  const lorebooks = useLorebooks();
  const books = (lorebooks.data ?? []).filter((book) => book.characterId === null);
  const full = value.length >= LOREBOOK_LIMITS.attached;

  return (
    <fieldset className="min-w-0 space-y-3" aria-describedby={`${id}-hint`} aria-busy={lorebooks.isPending || disabled} disabled={disabled}>
      <legend className={cn("text-sm font-medium", hideLegend && "sr-only")}>{legend}</legend>
      <p id={`${id}-hint`} className="text-xs leading-relaxed text-muted-foreground">
        {hint} Ticked books apply in their order, 1st first: when the space for lore runs out, the earlier book's entries win. At most{" "}
        {LOREBOOK_LIMITS.attached}.
      </p>
      {lorebooks.isPending ? (
        <div className="space-y-2" role="status" aria-label="Loading your lorebooks">
          <Skeleton className="h-14" />
          <Skeleton className="h-14" />
        </div>
      ) : lorebooks.isError ? (
        <div className="flex flex-wrap items-center gap-3 text-sm text-red-300" role="alert">
          Your lorebooks could not be loaded.
          <Button type="button" variant="secondary" size="sm" onClick={() => void lorebooks.refetch()}>
            Try Again
          </Button>
        </div>
      ) : books.length === 0 ? (
        <p className="flex items-start gap-2 rounded-xl border border-dashed border-border p-4 text-sm text-muted-foreground">
          <BookOpen aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>You have no lorebooks yet. Make one on your Lorebooks page, or import a SillyTavern World Info file there.</span>
        </p>
      ) : (
        <ul className="space-y-2">
          {books.map((book) => {
            const place = value.indexOf(book.id);
            const on = place >= 0;
            const rowId = `${id}-${book.id}`;
            return (
              <li
                key={book.id}
                className={cn(
                  "flex items-center gap-2 rounded-xl border border-border bg-surface/40 p-3 transition-colors",
                  on && "border-primary/70 bg-primary/10",
                )}
              >
                <label htmlFor={rowId} className={cn("flex min-w-0 flex-1 cursor-pointer items-center gap-3", !on && full && "cursor-not-allowed opacity-60")}>
                  <input
                    id={rowId}
                    type="checkbox"
                    checked={on}
                    disabled={!on && full}
                    onChange={(event) => onChange(toggleAttached(value, book.id, event.target.checked))}
                    className="size-4 shrink-0 accent-pink-500"
                  />
                  <span className="min-w-0 flex-1">
                    <span className="block truncate text-sm font-medium">{book.name}</span>
                    <span className="block truncate text-xs text-muted-foreground">
                      {on && <span className="font-medium text-pink-200">Applies {ordinal(place + 1)} · </span>}
                      {entries(book.entryCount)}
                    </span>
                  </span>
                </label>
                {on && value.length > 1 && (
                  <span className="flex shrink-0 gap-1">
                    <MoveButton label={`Move ${book.name} earlier`} icon="up" inert={place === 0} onMove={() => onChange(moveAttached(value, book.id, -1))} />
                    <MoveButton
                      label={`Move ${book.name} later`}
                      icon="down"
                      inert={place === value.length - 1}
                      onMove={() => onChange(moveAttached(value, book.id, 1))}
                    />
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <Button asChild variant="link" size="sm" className="h-auto px-0">
        <Link to="/lorebooks" {...(newTab ? { target: "_blank", rel: "noopener" } : {})}>
          {newTab ? <ExternalLink aria-hidden="true" /> : <BookOpen aria-hidden="true" />}
          {books.length === 0 ? "Make a lorebook" : "Make or edit lorebooks"}
          {newTab && <span className="sr-only"> (opens in a new tab)</span>}
        </Link>
      </Button>
    </fieldset>
  );
}

/** At either end the button stays focusable (aria-disabled, not disabled), so the focus is not lost when a book reaches it. */
function MoveButton({ label, icon, inert, onMove }: { label: string; icon: "up" | "down"; inert: boolean; onMove: () => void }) {
  const Icon = icon === "up" ? ArrowUp : ArrowDown;
  return (
    <Button
      type="button"
      variant="ghost"
      size="icon"
      aria-label={label}
      aria-disabled={inert || undefined}
      onClick={() => !inert && onMove()}
      className={cn("size-8", inert && "opacity-40")}
    >
      <Icon aria-hidden="true" />
    </Button>
  );
}
