/**
 * The confirmation before a delete ("Delete this message?") or a rewind
 * ("Delete this message and the N after it?"): nothing can bring them back.
 */
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";

/** A delete or rewind waiting for the person's answer: the message and how many follow it. */
export interface DeleteRequest {
  kind: "delete" | "rewind";
  messageId: string;
  /** Messages after it (a rewind deletes them too). */
  after: number;
}

/** The question the dialog asks, e.g. "Delete this message and the 3 after it?". */
export function deleteQuestion(request: Pick<DeleteRequest, "kind" | "after">): string {
  return request.kind === "rewind" && request.after > 0
    ? `Delete this message and the ${request.after} after it?`
    : "Delete this message?";
}

interface DeleteMessagesDialogProps {
  request: DeleteRequest | null;
  onCancel: () => void;
  onConfirm: (request: DeleteRequest) => void;
}

export function DeleteMessagesDialog({ request, onCancel, onConfirm }: DeleteMessagesDialogProps) {
  const rewind = request?.kind === "rewind";
  return (
    <ConfirmDialog
      open={request !== null}
      onOpenChange={(open) => !open && onCancel()}
      title={request ? deleteQuestion(request) : ""}
      description={
        rewind
          ? "The story goes back to the message before it. This cannot be undone."
          : "The rest of the chat stays as it is. This cannot be undone."
      }
      confirmLabel={rewind ? "Rewind" : "Delete"}
      onConfirm={() => request && onConfirm(request)}
    />
  );
}
