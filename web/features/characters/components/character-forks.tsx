/**
 * A character's lineage on its page (issue 40): the credit a fork carries
 * ("Forked from {name} by @{creator}", each a link; "a deleted character"
 * once the original is gone), "{n} forks" opening the list of its public
 * forks, and the Fork button for a signed-in person the creator allows.
 */
import { GitFork, LoaderCircle } from "lucide-react";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import type { Character } from "../../../../schema/api.ts";
import { creatorPath } from "../../../../schema/usernames.ts";
import { Button } from "../../../components/ui/button.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../../../components/ui/dialog.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { isUnauthorizedError, serverErrorText } from "../../../lib/api-client.ts";
import { useCatalogFilters } from "../../../lib/catalog-filters-context.tsx";
import { notifyUnauthorized } from "../../../lib/unauthorized.ts";
import { cn } from "../../../lib/utils.ts";
import { useForkCharacter } from "../api/fork-character.ts";
import { useForks } from "../api/get-forks.ts";
import { CharacterAvatar } from "./character-avatar.tsx";
import { CreatorLink } from "../../creators/components/creator-link.tsx";

const linkClass =
  "rounded-sm font-medium text-foreground/90 underline-offset-2 hover:text-foreground hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring";

/** "Forked from {name} by @{creator}", or "Forked from a deleted character"; nothing for a character that is no fork. */
export function ForkCredit({ forkedFrom, className }: { forkedFrom: Character["forkedFrom"]; className?: string }) {
  if (!forkedFrom) return null;
  return (
    <p className={cn("flex flex-wrap items-center gap-x-1 text-sm text-muted-foreground", className)}>
      <GitFork aria-hidden="true" className="size-4 shrink-0" />
      {forkedFrom.name === null ? (
        <span>Forked from a deleted character</span>
      ) : (
        <span>
          Forked from{" "}
          <Link to={`/character/${forkedFrom.id}`} className={linkClass}>
            {forkedFrom.name}
          </Link>
          {forkedFrom.creatorUsername && (
            <>
              {" by "}
              <Link to={creatorPath(forkedFrom.creatorUsername)} className={linkClass}>
                {forkedFrom.creatorUsername}
              </Link>
            </>
          )}
        </span>
      )}
    </p>
  );
}

/** "1 fork" / "{n} forks". */
export const forkCountText = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "fork" : "forks"}`;

/**
 * "{n} forks" (private forks included in the count), a button opening the
 * list of the public ones with their creators; says how many are not shown.
 */
export function ForkCount({ character }: { character: Character }) {
  const [open, setOpen] = useState(false);
  const { filters } = useCatalogFilters();
  const forks = useForks(character.id, filters.showNsfw, open);
  const shown = forks.data?.characters ?? [];
  const unlisted = forks.data ? Math.max(0, character.forkCount - forks.data.total) : 0;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <button
          type="button"
          className="inline-flex items-center gap-1.5 rounded-md transition-colors hover:text-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          <GitFork aria-hidden="true" />
          {forkCountText(character.forkCount)}
        </button>
      </DialogTrigger>
      <DialogContent className="max-h-[80vh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Forks of {character.name}</DialogTitle>
          <DialogDescription>Characters others built on this one, each crediting it.</DialogDescription>
        </DialogHeader>
        {forks.isPending ? (
          <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
            <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> Loading forks…
          </p>
        ) : forks.isError ? (
          <p role="alert" className="text-sm text-red-300">
            Could not load the forks. Please try again.
          </p>
        ) : (
          <>
            {shown.length > 0 ? (
              <ul aria-label="Public forks" className="flex flex-col gap-2">
                {shown.map((fork) => (
                  <li key={fork.id} className="flex items-center gap-3 rounded-xl border border-border bg-surface/50 p-2">
                    <div className="size-10 shrink-0 overflow-hidden rounded-lg">
                      <CharacterAvatar id={fork.id} name={fork.name} avatarUrl={fork.avatarUrl} initialClassName="text-lg" />
                    </div>
                    <div className="min-w-0">
                      <Link to={`/character/${fork.id}`} className={cn(linkClass, "block truncate")} onClick={() => setOpen(false)}>
                        {fork.name}
                      </Link>
                      <CreatorLink prefix="by " creator={fork.creator} username={fork.creatorUsername} className="text-xs text-muted-foreground" />
                    </div>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-muted-foreground">No public forks yet.</p>
            )}
            {unlisted > 0 && (
              <p className="text-xs text-muted-foreground">
                {unlisted === 1 ? "1 more fork is" : `${unlisted.toLocaleString("en-US")} more forks are`} private or hidden by
                your content settings.
              </p>
            )}
          </>
        )}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Close</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/**
 * "Fork": a private copy of one's own, then its page. Shown to a signed-in
 * person when the creator allows forks (the creator always may copy theirs).
 */
export function ForkButton({ character, className }: { character: Character; className?: string }) {
  const fork = useForkCharacter();
  const navigate = useNavigate();
  const start = () => {
    if (fork.isPending) return;
    fork.mutate(character.id, {
      onSuccess: (copy) => {
        toast({ title: "Forked", description: `${copy.name} is yours to edit. It stays private until you publish it from My Characters.` });
        navigate(`/character/${copy.id}`);
      },
      onError: (error) => {
        if (isUnauthorizedError(error)) notifyUnauthorized("fork a character");
        else toast({ title: "Could not fork", description: serverErrorText(error) ?? "Please try again.", variant: "destructive" });
      },
    });
  };
  return (
    <Button variant="outline" size="lg" onClick={start} disabled={fork.isPending} aria-busy={fork.isPending} className={className}>
      {fork.isPending ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <GitFork aria-hidden="true" />}
      Fork
    </Button>
  );
}
