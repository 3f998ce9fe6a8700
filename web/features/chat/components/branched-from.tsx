/** "Branched from {title}" with a link to the conversation a branch came from ("Branch from here"). */
import { GitBranch } from "lucide-react";
import { Link } from "react-router";
import type { Conversation } from "../../../../schema/chat.ts";
import { cn } from "../../../lib/utils.ts";

export function BranchedFrom({ from, className, linkClassName }: { from: NonNullable<Conversation["branchedFrom"]>; className?: string; linkClassName?: string }) {
  return (
    <p className={cn("flex min-w-0 items-center gap-1 text-xs text-muted-foreground", className)}>
      <GitBranch aria-hidden="true" className="size-3 shrink-0" />
      <span className="truncate">
        Branched from{" "}
        <Link to={`/chat/${from.id}`} className={cn("text-violet-200 underline-offset-2 hover:underline", linkClassName)}>
          {from.title ?? "an earlier chat"}
        </Link>
      </span>
    </p>
  );
}
