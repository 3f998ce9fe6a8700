/**
 * The Personas card on /profile: who the person is in chats. The list (the
 * default first), "New Persona", and per persona Edit, Make Default and
 * Delete (after a confirmation), each with its toast.
 */
import { Plus, UserRound } from "lucide-react";
import { useState } from "react";
import type { CurrentUser, Persona } from "../../../../schema/api.ts";
import { MAX_PERSONAS } from "../../../../schema/constants.ts";
import { ListEmpty, ListLoadFailed } from "../../../components/list-states.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Card, CardContent, CardHeader } from "../../../components/ui/card.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { serverErrorText } from "../../../lib/api-client.ts";
import { usePersonas } from "../../../lib/personas-query.ts";
import { userPlayName } from "../../../lib/user-display.ts";
import { useDeletePersona } from "../api/delete-persona.ts";
import { useUpdatePersona } from "../api/update-persona.ts";
import { DeletePersonaDialog } from "./delete-persona-dialog.tsx";
import { PersonaDialog } from "./persona-dialog.tsx";
import { PersonaItem, PersonaItemSkeleton } from "./persona-item.tsx";

export function PersonasSection({ user }: { user: CurrentUser }) {
  const query = usePersonas(true);
  const makeDefault = useUpdatePersona();
  const remove = useDeletePersona();
  /** The persona in the dialog: "new", one being edited, or null (closed). */
  const [editing, setEditing] = useState<Persona | "new" | null>(null);
  const [deleting, setDeleting] = useState<Persona | null>(null);
  const personas = query.data ?? [];
  const atLimit = personas.length >= MAX_PERSONAS;
  const firstName = userPlayName(user);

  const onMakeDefault = (persona: Persona) =>
    makeDefault.mutate(
      { id: persona.id, input: { isDefault: true } },
      {
        onSuccess: () => toast({ title: "Default persona changed", description: `${persona.name} is now your default persona.` }),
        onError: (error) =>
          toast({ title: "Error", description: serverErrorText(error) ?? "Failed to change the default persona", variant: "destructive" }),
      },
    );

  const onConfirmDelete = () => {
    if (!deleting) return;
    const { id, name } = deleting;
    remove.mutate(id, {
      onSuccess: () => {
        setDeleting(null);
        toast({ title: "Persona deleted", description: `${name} has been deleted.` });
      },
      onError: (error) =>
        toast({ title: "Error", description: serverErrorText(error) ?? "Failed to delete persona", variant: "destructive" }),
    });
  };

  let body;
  if (query.isPending) {
    body = (
      <div className="space-y-3" role="status" aria-busy="true" aria-label="Loading your personas">
        <PersonaItemSkeleton />
        <PersonaItemSkeleton />
      </div>
    );
  } else if (query.isError) {
    body = <ListLoadFailed title="Failed to load your personas" onRetry={() => void query.refetch()} />;
  } else if (personas.length === 0) {
    body = (
      <ListEmpty icon={UserRound} title="No personas yet">
        Until you make one, characters call you {firstName}. A persona lets you be someone else in the story.
      </ListEmpty>
    );
  } else {
    body = (
      <ul aria-label="Your personas" className="space-y-3">
        {personas.map((persona) => (
          <PersonaItem
            key={persona.id}
            persona={persona}
            onEdit={() => setEditing(persona)}
            onMakeDefault={() => onMakeDefault(persona)}
            onDelete={() => setDeleting(persona)}
            busy={makeDefault.isPending}
          />
        ))}
      </ul>
    );
  }

  return (
    <Card role="region" className="mt-6" aria-labelledby="personas-heading">
      <CardHeader className="gap-4 p-6 pb-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1">
          <h2 id="personas-heading" className="text-xl font-bold tracking-tight">
            Personas
          </h2>
          <p className="text-sm text-muted-foreground">
            Who you are in chats: your name for <code className="text-violet-200">{"{{user}}"}</code> and a description the
            characters know.
          </p>
        </div>
        <Button
          variant="secondary"
          className="self-start"
          onClick={() => setEditing("new")}
          disabled={query.isPending || query.isError || atLimit}
          title={atLimit ? `You can keep at most ${MAX_PERSONAS} personas` : undefined}
        >
          <Plus aria-hidden="true" /> New Persona
        </Button>
      </CardHeader>
      <CardContent className="p-6 pt-4">
        {body}
        {atLimit && (
          <p className="mt-3 text-xs text-muted-foreground">You can keep at most {MAX_PERSONAS} personas. Delete one to make another.</p>
        )}
      </CardContent>
      {editing !== null && (
        <PersonaDialog
          key={editing === "new" ? "new" : editing.id}
          persona={editing === "new" ? null : editing}
          isFirst={personas.length === 0}
          fallbackName={firstName}
          onClose={() => setEditing(null)}
        />
      )}
      <DeletePersonaDialog
        name={deleting?.name ?? null}
        onOpenChange={(open) => !open && setDeleting(null)}
        onConfirm={onConfirmDelete}
        pending={remove.isPending}
      />
    </Card>
  );
}
