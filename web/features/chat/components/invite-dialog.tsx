/**
 * "Invite people" (DESIGN.md "Shared rooms"; the owner's chat menu): makes
 * an invitation link (`POST …/invites`), shows it as a full URL with Copy
 * and the date it stops working (7 days), and "Revoke link" (`DELETE
 * …/invites/{token}`), after which the link leads nowhere. Each opening
 * makes a new link; earlier ones keep working until revoked or expired.
 */
import { Check, Copy, LoaderCircle } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import type { ConversationInvite } from "../../../../schema/chat.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../../../components/ui/dialog.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { serverErrorText } from "../../../lib/api-client.ts";
import { copyText } from "../../../lib/clipboard.ts";
import { useCreateInvite, useRevokeInvite } from "../api/invites.ts";

/** The link as a person shares it: the page's origin and the answer's `url`. */
export function inviteLink(invite: Pick<ConversationInvite, "url">, origin: string): string {
  return new URL(invite.url, origin).toString();
}

/** Open while mounted. */
export function InviteDialog({ conversationId, onClose }: { conversationId: string; onClose: () => void }) {
  const create = useCreateInvite(conversationId);
  const revoke = useRevokeInvite(conversationId);
  const [invite, setInvite] = useState<ConversationInvite | null>(null);
  const [revoked, setRevoked] = useState(false);
  const [copied, setCopied] = useState(false);
  const { mutate } = create;
  // One link per opening (StrictMode runs effects twice in development).
  const asked = useRef(false);

  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    mutate(undefined, { onSuccess: setInvite });
  }, [mutate]);

  const link = invite ? inviteLink(invite, window.location.origin) : "";
  const onCopy = () =>
    void copyText(link).then((ok) => {
      setCopied(ok);
      if (!ok) toast({ title: "Error", description: "Failed to copy the link.", variant: "destructive" });
    });
  const onRevoke = () => {
    if (!invite) return;
    revoke.mutate(invite.token, {
      onSuccess: () => {
        setRevoked(true);
        toast({ title: "Link revoked", description: "Nobody can join with it any more." });
      },
      onError: (error) => toast({ title: "Error", description: serverErrorText(error) ?? "Failed to revoke the link.", variant: "destructive" }),
    });
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>Invite people</DialogTitle>
          <DialogDescription>Anyone with this link can join this chat and play along (at most 10 people).</DialogDescription>
        </DialogHeader>
        {create.isPending && (
          <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
            <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> Making a link…
          </p>
        )}
        {create.isError && (
          <p role="alert" className="text-sm text-red-300">
            {serverErrorText(create.error) ?? "Failed to make a link. Please try again."}
          </p>
        )}
        {invite && !revoked && (
          <div className="space-y-2">
            <label htmlFor="invite-link" className="text-sm font-medium">
              Invitation link
            </label>
            <div className="flex gap-2">
              <Input id="invite-link" readOnly value={link} onFocus={(e) => e.target.select()} className="min-w-0 flex-1 font-mono text-xs" />
              <Button variant="secondary" onClick={onCopy} className="shrink-0">
                {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />} {copied ? "Copied" : "Copy"}
              </Button>
            </div>
            <p className="text-xs text-muted-foreground">
              Works until {new Date(invite.expiresAt).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" })}.
            </p>
          </div>
        )}
        {revoked && (
          <p role="status" className="text-sm text-muted-foreground">
            The link is revoked: nobody can join with it any more. People who joined stay.
          </p>
        )}
        <DialogFooter>
          {invite && !revoked && (
            <Button variant="outline" onClick={onRevoke} disabled={revoke.isPending} className="text-red-300">
              Revoke link
            </Button>
          )}
          {revoked && (
            <Button
              variant="outline"
              onClick={() => {
                setRevoked(false);
                setCopied(false);
                setInvite(null);
                mutate(undefined, { onSuccess: setInvite });
              }}
            >
              New link
            </Button>
          )}
          <DialogClose asChild>
            <Button variant="gradient">Done</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
