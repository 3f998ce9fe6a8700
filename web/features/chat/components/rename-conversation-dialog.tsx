/**
 * "Rename chat": the conversation's title (1–200 characters) in a dialog,
 * saved with `PATCH /api/conversations/{id}`; a refused title keeps the
 * dialog open with the server's sentence under the field.
 */
import { type FormEvent, useState } from "react";
import { MAX_CONVERSATION_TITLE_LENGTH } from "../../../../schema/chat.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../../../components/ui/dialog.tsx";
import { FormField } from "../../../components/ui/form-field.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { serverErrorText } from "../../../lib/api-client.ts";
import { useRenameConversation } from "../api/rename-conversation.ts";

/** The conversation being renamed: its id and the title shown now. */
export interface RenameRequest {
  id: string;
  title: string;
}

interface RenameConversationDialogProps {
  request: RenameRequest | null;
  onClose: () => void;
}

export function RenameConversationDialog({ request, onClose }: RenameConversationDialogProps) {
  return (
    <Dialog open={request !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        {/* Keyed by conversation so the field starts from its title each time. */}
        {request && <RenameForm key={request.id} request={request} onClose={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function RenameForm({ request, onClose }: { request: RenameRequest; onClose: () => void }) {
  const [title, setTitle] = useState(request.title);
  const rename = useRenameConversation();
  const trimmed = title.trim();
  const tooLong = trimmed.length > MAX_CONVERSATION_TITLE_LENGTH;
  const error = tooLong
    ? `Titles can be at most ${MAX_CONVERSATION_TITLE_LENGTH} characters`
    : rename.isError
      ? (serverErrorText(rename.error) ?? "Failed to rename the chat. Please try again.")
      : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (trimmed === "" || tooLong || rename.isPending) return;
    rename.mutate({ id: request.id, title: trimmed }, { onSuccess: onClose });
  };

  return (
    <form onSubmit={submit} className="space-y-4">
      <DialogHeader>
        <DialogTitle>Rename chat</DialogTitle>
        <DialogDescription>The title is shown in My Chats and on exported files.</DialogDescription>
      </DialogHeader>
      <FormField id="conversation-title" label="Title" error={error}>
        {(describedBy) => (
          <Input
            id="conversation-title"
            value={title}
            onChange={(event) => {
              setTitle(event.target.value);
              if (rename.isError) rename.reset();
            }}
            maxLength={MAX_CONVERSATION_TITLE_LENGTH + 50}
            aria-describedby={describedBy}
            aria-invalid={error ? true : undefined}
            autoFocus
          />
        )}
      </FormField>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" variant="gradient" disabled={trimmed === "" || tooLong || rename.isPending}>
          Save
        </Button>
      </DialogFooter>
    </form>
  );
}
