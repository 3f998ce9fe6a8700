/**
 * "Lorebooks" from the chat header's menu (the owner's, one-to-one and
 * group alike; DESIGN.md turn 4 "Lorebooks"): which of the owner's
 * standalone books apply in this chat, to every speaker, in order. The
 * chat's current books come from `GET /api/conversations/{id}` (its
 * `lorebookIds`, read afresh on opening: a copy of the chat from another
 * write may lack them); Save sends `PATCH /api/conversations/{id}
 * {lorebookIds}`, which the room reads at its next reply. On success a toast
 * says so and the dialog closes (the focus goes back to the menu's button,
 * DialogContent); on failure it stays open with a toast saying why. Open
 * while mounted.
 */
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../../../components/ui/dialog.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { isUnauthorizedError, serverErrorText } from "../../../lib/api-client.ts";
import { notifyUnauthorized } from "../../../lib/unauthorized.ts";
import { LorebookChecklist } from "../../lorebooks/components/lorebook-checklist.tsx";
import { attachedChanged } from "../../lorebooks/lib/attached.ts";
import { conversationQueryOptions } from "../api/get-conversation.ts";
import { useUpdateConversation } from "../api/update-conversation.ts";

interface LorebooksDialogProps {
  conversationId: string;
  onClose: () => void;
}

export function LorebooksDialog({ conversationId, onClose }: LorebooksDialogProps) {
  const conversation = useQuery({ ...conversationQueryOptions(conversationId), refetchOnMount: "always" });
  const saved = conversation.data?.lorebookIds;
  // What the person ticked; until then, what the chat has.
  const [chosen, setChosen] = useState<string[] | null>(null);
  const value = chosen ?? saved ?? null;
  const update = useUpdateConversation(conversationId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value === null || update.isPending) return;
    if (saved && !attachedChanged(value, saved)) return onClose();
    update.mutate(
      { lorebookIds: value },
      {
        onSuccess: () => {
          toast({
            title: "Lorebooks saved",
            description: value.length === 0 ? "No lorebook of yours applies in this chat now." : "They apply from the next reply on.",
          });
          onClose();
        },
        onError: (error) => {
          if (isUnauthorizedError(error)) notifyUnauthorized("view this conversation");
          else toast({ title: "Error", description: serverErrorText(error) ?? "Failed to save the lorebooks. Please try again.", variant: "destructive" });
        },
      },
    );
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-md overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Lorebooks</DialogTitle>
          <DialogDescription>
            Your lorebooks for this chat: their entries join the prompt when their keys come up, for every character in it, beside the
            characters' own.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="space-y-4" aria-busy={update.isPending}>
          {value === null && conversation.isError ? (
            <p role="alert" className="text-sm text-red-300">
              This chat's lorebooks could not be loaded. Close and try again.
            </p>
          ) : (
            <LorebookChecklist
              legend="Lorebooks for this chat"
              hideLegend
              hint="Tick the books that apply here."
              value={value ?? []}
              onChange={setChosen}
              disabled={value === null || update.isPending}
            />
          )}
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" variant="gradient" disabled={value === null || update.isPending}>
              {update.isPending ? "Saving..." : "Save"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
