/**
 * A confirmation before something that cannot be undone (WAI-ARIA alert
 * dialog): a title, what will happen, Cancel and the destructive action.
 * Used for deleting a character, a persona, chat messages.
 */
import type { ReactNode } from "react";
import { Button } from "./ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "./ui/dialog.tsx";

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** What will happen, in a sentence or two. */
  description: ReactNode;
  /** The destructive button's label (default "Delete"). */
  confirmLabel?: string;
  onConfirm: () => void;
  /** The action is under way: the button is disabled. */
  pending?: boolean;
}

export function ConfirmDialog({ open, onOpenChange, title, description, confirmLabel = "Delete", onConfirm, pending = false }: ConfirmDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent role="alertdialog">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button variant="destructive" onClick={onConfirm} disabled={pending}>
            {confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
