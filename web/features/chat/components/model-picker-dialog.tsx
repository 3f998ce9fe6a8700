/**
 * "Model" from the chat header's menu: which model writes this chat —
 * "Default" (the person's default connection, else this site's model) or
 * one of their connections (`GET /api/model-connections`). Picking one
 * sends `PATCH /api/conversations/:id`; the next reply uses it. A dialog
 * like the persona picker: it fits a phone's width.
 */
import { LoaderCircle, Settings2 } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import type { Conversation } from "../../../../schema/chat.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../../../components/ui/dialog.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { isUnauthorizedError, serverErrorText } from "../../../lib/api-client.ts";
import { useUser } from "../../../lib/auth.ts";
import { connectionLabel, useModelConnections } from "../../../lib/model-connections-query.ts";
import { notifyUnauthorized } from "../../../lib/unauthorized.ts";
import { cn } from "../../../lib/utils.ts";
import { useSetConversationModel } from "../api/set-conversation-model.ts";

/** The radio value of "Default" (connection ids are UUIDs). */
const DEFAULT_VALUE = "default";

interface ModelPickerDialogProps {
  conversation: Conversation;
  onClose: () => void;
}

/** Open while mounted. */
export function ModelPickerDialog({ conversation, onClose }: ModelPickerDialogProps) {
  const { user } = useUser();
  const connections = useModelConnections(user !== null);
  const pick = useSetConversationModel(conversation.id);
  const list = connections.data ?? [];
  const current = list.find((c) => c.id === conversation.modelConnectionId)?.id ?? DEFAULT_VALUE;
  const [choice, setChoice] = useState<string | null>(null);
  const chosen = choice ?? current;
  const fallback = list.find((c) => c.isDefault);

  const onPick = (value: string) => {
    if (value === current || pick.isPending) return;
    const modelConnectionId = value === DEFAULT_VALUE ? null : value;
    const picked = list.find((c) => c.id === modelConnectionId) ?? fallback;
    setChoice(value);
    pick.mutate(modelConnectionId, {
      onSuccess: () => {
        toast({ title: "Model changed", description: `${picked ? connectionLabel(picked) : "This site's model"} writes the next reply.` });
        onClose();
      },
      onError: (error) => {
        setChoice(null);
        if (isUnauthorizedError(error)) notifyUnauthorized("view this conversation");
        else toast({ title: "Error", description: serverErrorText(error) ?? "Failed to change the model. Please try again.", variant: "destructive" });
      },
    });
  };

  const options = [
    { value: DEFAULT_VALUE, name: "Default", detail: fallback ? `Your default: ${connectionLabel(fallback)}` : "This site's model" },
    ...list.map((c) => ({ value: c.id, name: c.name, detail: c.kind === "site" ? `${c.model} · this site` : c.model })),
  ];

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-md overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Model</DialogTitle>
          <DialogDescription>Which model writes this chat, from the next reply on.</DialogDescription>
        </DialogHeader>
        <fieldset aria-busy={pick.isPending || connections.isPending} className="min-w-0 space-y-2">
          <legend className="sr-only">Model for this chat</legend>
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
                name="model"
                value={option.value}
                checked={chosen === option.value}
                disabled={pick.isPending}
                onChange={() => onPick(option.value)}
                className="size-4 shrink-0 accent-pink-500 focus:outline-none"
              />
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm font-medium">{option.name}</span>
                <span className="block truncate text-xs text-muted-foreground">{option.detail}</span>
              </span>
              {pick.isPending && chosen === option.value && <LoaderCircle aria-hidden="true" className="size-4 shrink-0 animate-spin text-muted-foreground" />}
            </label>
          ))}
          {connections.isPending && user && <p className="px-1 text-xs text-muted-foreground">Loading your models…</p>}
          {connections.isError && <p className="px-1 text-xs text-red-300">Failed to load your models</p>}
        </fieldset>
        <DialogFooter className="sm:justify-between">
          <Button asChild variant="ghost">
            <Link to="/settings/models">
              <Settings2 aria-hidden="true" /> {list.length === 0 ? "Add your own model" : "Manage models"}
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
