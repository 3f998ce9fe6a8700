/** The confirmation before deleting a persona: its name, the warning, Cancel and Delete. */
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";

interface DeletePersonaDialogProps {
  /** The persona's name while one is chosen for deletion; null when closed. */
  name: string | null;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
  pending: boolean;
}

export function DeletePersonaDialog({ name, onOpenChange, onConfirm, pending }: DeletePersonaDialogProps) {
  return (
    <ConfirmDialog
      open={name !== null}
      onOpenChange={onOpenChange}
      title="Delete Persona"
      description={
        <>
          Are you sure you want to delete {name ? <strong className="text-foreground">{name}</strong> : "this persona"}? This action
          cannot be undone.
        </>
      }
      onConfirm={onConfirm}
      pending={pending}
    />
  );
}
