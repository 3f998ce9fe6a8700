import { Eye, Heart, MessageCircle, ThumbsUp } from "lucide-react";
import type { ComponentProps, MouseEvent } from "react";
import { RATING_TONE_CLASS, formatCount, formatRating, ratingTone } from "../../../lib/format.ts";
import { cn } from "../../../lib/utils.ts";

/**
 * One icon + number statistic with a spoken label (the exact number: "1234
 * views"); with `showLabel` the label is also written after the number
 * ("1.2k views").
 */
export function Stat({
  icon: Icon,
  value,
  label,
  showLabel = false,
  className,
}: {
  icon: typeof Eye;
  value: number;
  label: string;
  showLabel?: boolean;
  className?: string;
}) {
  return (
    <span className={cn("inline-flex items-center gap-1 tabular-nums", className)}>
      <Icon aria-hidden="true" className="size-3.5 shrink-0" />
      <span aria-hidden="true">
        {formatCount(value)}
        {showLabel && ` ${label}`}
      </span>
      <span className="sr-only">
        {value} {label}
      </span>
    </span>
  );
}

export function ViewCount({ value, className }: { value: number; className?: string }) {
  return <Stat icon={Eye} value={value} label={value === 1 ? "view" : "views"} className={className} />;
}

export function CommentCount({ value, className }: { value: number; className?: string }) {
  return (
    <Stat icon={MessageCircle} value={value} label={value === 1 ? "comment" : "comments"} className={className} />
  );
}

/**
 * The comment count as a link to the element `#targetId` (the comments
 * section): scrolls there smoothly (at once with reduced motion) and moves
 * focus there, so keyboard and screen-reader users land on it too.
 */
export function CommentCountLink({ value, targetId, className }: { value: number; targetId: string; className?: string }) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    const target = document.getElementById(targetId);
    if (!target) return;
    event.preventDefault();
    const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    target.scrollIntoView({ behavior: reduceMotion ? "auto" : "smooth", block: "start" });
    target.focus({ preventScroll: true });
    history.replaceState(history.state, "", `#${targetId}`);
  };
  return (
    <a
      href={`#${targetId}`}
      onClick={onClick}
      className={cn(
        "rounded-full transition-colors hover:text-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring",
        className,
      )}
    >
      <CommentCount value={value} />
    </a>
  );
}

/** Rating as a percentage, green ≥ 80, yellow ≥ 60, orange below (SPEC.md §9). */
export function Rating({ value, className }: { value: number; className?: string }) {
  const rounded = Math.round(value);
  return (
    <span className={cn("inline-flex items-center gap-1 font-medium tabular-nums", RATING_TONE_CLASS[ratingTone(rounded)], className)}>
      <ThumbsUp aria-hidden="true" className="size-3.5 shrink-0" />
      <span aria-hidden="true">{formatRating(rounded)}</span>
      <span className="sr-only">Rated {formatRating(rounded)}</span>
    </span>
  );
}

interface FavoriteButtonProps extends Omit<ComponentProps<"button">, "onClick"> {
  characterName: string;
  count: number;
  isFavorited?: boolean;
  onToggle: () => void;
}

/**
 * Heart + count. Never lets its click reach an enclosing card link (the card
 * is a stretched link; this button sits above it). Its accessible name
 * starts with the count it shows, "12, add Ada to favorites", so speech
 * input can name it by what is seen (WCAG 2.5.3 "Label in Name"; axe 4.14's
 * `label-content-name-mismatch` asks for the visible text first).
 */
export function FavoriteButton({ characterName, count, isFavorited = false, onToggle, className, ...props }: FavoriteButtonProps) {
  const handleClick = (event: MouseEvent<HTMLButtonElement>) => {
    event.preventDefault();
    event.stopPropagation();
    onToggle();
  };
  return (
    <button
      type="button"
      aria-label={`${formatCount(count)}, ${isFavorited ? "remove" : "add"} ${characterName} ${isFavorited ? "from" : "to"} favorites`}
      aria-pressed={isFavorited}
      onClick={handleClick}
      className={cn(
        "relative z-10 inline-flex cursor-pointer items-center gap-1 rounded-full tabular-nums transition-colors hover:text-pink-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring",
        isFavorited && "text-pink-500",
        className,
      )}
      {...props}
    >
      <Heart aria-hidden="true" className={cn("size-3.5 shrink-0", isFavorited && "fill-current")} />
      <span>{formatCount(count)}</span>
    </button>
  );
}
