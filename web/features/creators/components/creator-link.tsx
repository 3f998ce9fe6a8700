/**
 * "@creator" under a character (cards, the character page, the chat header):
 * the handle the character shows (SPEC.md "@" plus creator), linking to its
 * owner's creator page, `/u/{name}`. Without an owner (no account) it is text.
 */
import { Link } from "react-router";
import { creatorPath } from "../../../../schema/usernames.ts";
import { cn } from "../../../lib/utils.ts";

interface CreatorLinkProps {
  /** The character's `creator` handle, shown after "@". */
  creator: string;
  /** The owner's username (`creatorUsername`), where the link goes; null: plain text. */
  username: string | null;
  /** Text before the handle, e.g. "by ". */
  prefix?: string;
  className?: string;
}

export function CreatorLink({ creator, username, prefix = "", className }: CreatorLinkProps) {
  if (!username) {
    return (
      <span className={className}>
        {prefix}@{creator}
      </span>
    );
  }
  return (
    <span className={className}>
      {prefix}
      <Link
        to={creatorPath(username)}
        className="relative z-10 rounded-sm underline-offset-2 hover:text-foreground hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
      >
        @{creator}
      </Link>
    </span>
  );
}
