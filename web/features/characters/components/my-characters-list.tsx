/**
 * The grid of My Characters (SPEC.md §2, §4, §8): 4 skeleton cards while
 * loading, the empty state, the cards, and the toggle and delete flows with
 * their toasts.
 */
import { CloudOff, Plus, Wand2 } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import type { OwnCharacter } from "../../../../schema/api.ts";
import { Button } from "../../../components/ui/button.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { useDeleteCharacter } from "../api/delete-character.ts";
import { useMyCharacters } from "../api/get-my-characters.ts";
import { useToggleCharacterActive } from "../api/toggle-character-active.ts";
import { DeleteCharacterDialog } from "./delete-character-dialog.tsx";
import { MyCharacterCard, MyCharacterCardSkeleton } from "./my-character-card.tsx";

/** Skeleton cards while the list loads (SPEC.md §9). */
const SKELETON_COUNT = 4;

const GRID_CLASS = "grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4";

export function MyCharactersList() {
  const query = useMyCharacters(true);
  const toggle = useToggleCharacterActive();
  const remove = useDeleteCharacter();
  const [deleting, setDeleting] = useState<OwnCharacter | null>(null);

  if (query.isPending) {
    return (
      <div className={GRID_CLASS} role="status" aria-busy="true" aria-label="Loading your characters">
        {Array.from({ length: SKELETON_COUNT }, (_, i) => (
          <MyCharacterCardSkeleton key={i} />
        ))}
      </div>
    );
  }

  if (query.isError) {
    return (
      <div className="flex flex-col items-center gap-4 rounded-2xl border border-border bg-card px-6 py-16 text-center">
        <CloudOff aria-hidden="true" className="size-10 text-muted-foreground" />
        <p className="text-lg font-semibold">Failed to load your characters</p>
        <Button variant="secondary" onClick={() => void query.refetch()}>
          Try Again
        </Button>
      </div>
    );
  }

  if (query.data.length === 0) {
    return (
      <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-border px-6 py-20 text-center">
        <div className="mb-2 flex size-14 items-center justify-center rounded-2xl bg-gradient-to-br from-primary-strong to-accent-pink shadow-lg shadow-primary/30">
          <Wand2 aria-hidden="true" className="size-7 text-white" />
        </div>
        <p className="text-lg font-semibold">You haven't created any characters yet</p>
        <p className="max-w-md text-sm text-muted-foreground">
          Bring someone to life: give them a personality, a look and a first line, or import a character card.
        </p>
        <Button asChild variant="gradient" size="lg" className="mt-3">
          <Link to="/create-character">
            <Plus aria-hidden="true" /> Create Your First Character
          </Link>
        </Button>
      </div>
    );
  }

  const onToggle = (character: OwnCharacter) =>
    toggle.mutate(character.id, {
      onSuccess: () => toast({ title: "Status updated", description: "Character status has been updated successfully" }),
      onError: () => toast({ title: "Error", description: "Failed to update character status", variant: "destructive" }),
    });

  const onConfirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        setDeleting(null);
        toast({ title: "Character deleted", description: "Your character has been deleted successfully" });
      },
      onError: () => {
        setDeleting(null);
        toast({ title: "Error", description: "Failed to delete character", variant: "destructive" });
      },
    });
  };

  return (
    <>
      <ul className={GRID_CLASS}>
        {query.data.map((character) => (
          <li key={character.id}>
            <MyCharacterCard
              character={character}
              toggling={toggle.isPending && toggle.variables === character.id}
              onToggleActive={() => onToggle(character)}
              onDelete={() => setDeleting(character)}
            />
          </li>
        ))}
      </ul>
      <DeleteCharacterDialog
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open && !remove.isPending) setDeleting(null);
        }}
        onConfirm={onConfirmDelete}
        pending={remove.isPending}
      />
    </>
  );
}
