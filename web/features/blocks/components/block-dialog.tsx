/**
 * The confirmation before blocking someone (issue 35): what a block does,
 * that they are not told, and Block. Used from a comment's menu and a
 * person's page; a failure stays in the dialog with the server's sentence.
 */
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { serverErrorText } from "../../../lib/api-client.ts";
import { useSetBlocked } from "../api/blocks.ts";

interface BlockDialogProps {
  /** The person to block ("@name"); null: the dialog is closed. */
  username: string | null;
  onClose: () => void;
}

export function BlockDialog({ username, onClose }: BlockDialogProps) {
  const setBlocked = useSetBlocked();
  const onConfirm = () => {
    if (!username) return;
    setBlocked.mutate(
      { username, block: true },
      {
        onSuccess: () => {
          onClose();
          toast({ title: `${username} blocked`, description: "You can unblock them from Blocked people in your profile." });
        },
        onError: (error) => toast({ title: "Error", description: serverErrorText(error) ?? "Failed to block", variant: "destructive" }),
      },
    );
  };
  return (
    <ConfirmDialog
      open={username !== null}
      onOpenChange={(open) => !open && onClose()}
      title={`Block ${username ?? ""}?`}
      description={
        <>
          They won&apos;t be able to follow you, comment on your characters, reply to your comments or join your chats, and you
          won&apos;t see their comments. You&apos;ll both stop following each other and leave each other&apos;s shared chats.{" "}
          <strong className="font-semibold text-foreground">They won&apos;t be told.</strong>
        </>
      }
      confirmLabel="Block"
      onConfirm={onConfirm}
      pending={setBlocked.isPending}
    />
  );
}
