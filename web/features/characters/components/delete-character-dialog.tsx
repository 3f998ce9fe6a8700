/**
 * The confirmation before deleting a character (SPEC.md §2 "My
 * Characters"): "Delete Character", the warning, Cancel and Delete.
 */
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";

interface DeleteCharacterDialogProps {
  /** Open while a character is chosen for deletion. */
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
  pending: boolean;
}

export function DeleteCharacterDialog({ open, onOpenChange, onConfirm, pending }: DeleteCharacterDialogProps) {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Delete Character"
      description="Are you sure you want to delete this character? This action cannot be undone."
      onConfirm={onConfirm}
      pending={pending}
    />
  );
}
