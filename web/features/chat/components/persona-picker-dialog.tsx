/**
 * "Persona" from the chat header's menu: who the person plays in this chat
 * — "Default persona" (their default one, else their first name) or one of
 * their personas (`GET /api/personas`). Picking one sends `PUT
 * /api/conversations/:id/persona`; the open chat plays it from the next
 * reply on (docs/decisions/0007-steering-a-chat.md "Personas"). A dialog
 * rather than a submenu: it fits a phone's width and has room for each
 * persona's description.
 */
import { LoaderCircle, Settings2 } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import type { Conversation } from "../../../../schema/chat.ts";
import { Avatar } from "../../../components/ui/avatar.tsx";
import { Button } from "../../../components/ui/button.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../../components/ui/dialog.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { isUnauthorizedError, serverErrorText } from "../../../lib/api-client.ts";
import { useUser } from "../../../lib/auth.ts";
import { usePersonas } from "../../../lib/personas-query.ts";
import { notifyUnauthorized } from "../../../lib/unauthorized.ts";
import { userPlayName } from "../../../lib/user-display.ts";
import { cn } from "../../../lib/utils.ts";
import { useSetConversationPersona } from "../api/set-conversation-persona.ts";
import { characterInitial } from "../lib/chat-character.ts";

/** The radio value of "Default persona" (persona ids are UUIDs). */
const DEFAULT_VALUE = "default";

interface PersonaPickerDialogProps {
  conversation: Conversation;
  characterName: string;
  onClose: () => void;
}

/** Open while mounted. */
export function PersonaPickerDialog({ conversation, characterName, onClose }: PersonaPickerDialogProps) {
  const { user } = useUser();
  const personas = usePersonas(user !== null);
  const pick = useSetConversationPersona(conversation.id);
  const list = personas.data ?? [];
  // A persona deleted since it was picked: the chat plays the default one (the Worker's rule).
  const current = list.find((p) => p.id === conversation.personaId)?.id ?? DEFAULT_VALUE;
  // The choice shows at once (a controlled radio must not snap back while the request runs).
  const [choice, setChoice] = useState<string | null>(null);
  const chosen = choice ?? current;
  const defaultName = list.find((p) => p.isDefault)?.name ?? (user ? userPlayName(user) : null);

  const onPick = (value: string) => {
    if (value === current || pick.isPending) return;
    const personaId = value === DEFAULT_VALUE ? null : value;
    const name = personaId ? list.find((p) => p.id === personaId)?.name : defaultName;
    setChoice(value);
    pick.mutate(personaId, {
      onSuccess: () => {
        toast({ title: "Persona changed", description: `${characterName} talks to ${name ?? "your default persona"} from the next reply on.` });
        onClose();
      },
      onError: (error) => {
        setChoice(null);
        if (isUnauthorizedError(error)) notifyUnauthorized("view this conversation");
        else toast({ title: "Error", description: serverErrorText(error) ?? "Failed to change the persona. Please try again.", variant: "destructive" });
      },
    });
  };

  const options = [
    { value: DEFAULT_VALUE, name: "Default persona", detail: defaultName ? `You as ${defaultName}` : "Your default persona", avatarUrl: null },
    ...list.map((p) => ({ value: p.id, name: p.name, detail: p.description, avatarUrl: p.avatarUrl })),
  ];

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-md overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Persona</DialogTitle>
          <DialogDescription>Who you are in this chat. {characterName} uses it from the next reply on.</DialogDescription>
        </DialogHeader>
        <fieldset aria-busy={pick.isPending || personas.isPending} className="min-w-0 space-y-2">
          <legend className="sr-only">Play this chat as</legend>
          {options.map((option) => (
            <label
              key={option.value}
              className={cn(
                "flex cursor-pointer items-center gap-3 rounded-xl border border-border bg-surface/40 p-3 transition-colors hover:bg-surface",
                "has-[:checked]:border-primary/70 has-[:checked]:bg-primary/10 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring",
                pick.isPending && "cursor-wait",
              )}
            >
              <input
                type="radio"
                name="persona"
                value={option.value}
                checked={chosen === option.value}
                disabled={pick.isPending}
                onChange={() => onPick(option.value)}
                className="size-4 shrink-0 accent-pink-500 focus:outline-none"
              />
              <span aria-hidden="true" className="contents">
                <Avatar
                  src={option.avatarUrl}
                  fallback={characterInitial(option.value === DEFAULT_VALUE ? (defaultName ?? "?") : option.name)}
                  className="size-9"
                />
              </span>
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm font-medium">{option.name}</span>
                {option.detail && <span className="block truncate text-xs text-muted-foreground">{option.detail}</span>}
              </span>
              {pick.isPending && chosen === option.value && <LoaderCircle aria-hidden="true" className="size-4 shrink-0 animate-spin text-muted-foreground" />}
            </label>
          ))}
          {personas.isPending && user && <p className="px-1 text-xs text-muted-foreground">Loading your personas…</p>}
          {personas.isError && <p className="px-1 text-xs text-red-300">Failed to load your personas</p>}
        </fieldset>
        <DialogFooter className="sm:justify-between">
          <Button asChild variant="ghost">
            <Link to="/profile">
              <Settings2 aria-hidden="true" /> {list.length === 0 ? "Create a persona" : "Manage personas"}
            </Link>
          </Button>
          <DialogClose asChild>
            <Button variant="outline">Close</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
