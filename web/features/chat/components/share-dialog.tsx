/**
 * "Share" (DESIGN.md "Sharing and forks"; the owner's chat menu): "Create
 * link" takes a snapshot of the chat as it is shown now (hidden messages
 * left out; later messages and edits never reach it) and shows it as a full
 * URL with Copy. Opened from a message's "Share up to here", the snapshot
 * ends at that message (`upToMessageId`), named above the button with a way
 * back to the whole chat. Below, every link of this chat, newest first, each
 * with Copy and Revoke (after which it leads nowhere). Share again for a
 * newer snapshot.
 */
import { Check, Copy, ExternalLink, LoaderCircle, Share2, Trash2 } from "lucide-react";
import { useState } from "react";
import type { ShareLink } from "../../../../schema/shares.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../../../components/ui/dialog.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { serverErrorText } from "../../../lib/api-client.ts";
import { copyText } from "../../../lib/clipboard.ts";
import { useCreateShare, useRevokeShare, useShares } from "../api/shares.ts";

/** The first END_EXCERPT_CHARS characters of `content`, on one line, without the emphasis marks of Markdown (`*actions*`). */
function excerpt(content: string): string {
  const line = content.replace(/[*_~`]+/g, "").replace(/\s+/g, " ").trim();
  return line.length > END_EXCERPT_CHARS ? `${line.slice(0, END_EXCERPT_CHARS - 1).trimEnd()}…` : line;
}

/** The link as a person pastes it: the page's origin and the share's `url`. */
export function shareLink(share: Pick<ShareLink, "url">, origin: string): string {
  return new URL(share.url, origin).toString();
}

/** The message a share ends at ("Share up to here"): its id and what the dialog quotes of it. */
export interface ShareEnd {
  messageId: string;
  /** Who wrote it, as the chat shows them. */
  speaker: string;
  content: string;
}

/** Most characters of the end message quoted in the dialog. */
const END_EXCERPT_CHARS = 140;

interface ShareDialogProps {
  conversationId: string;
  onClose: () => void;
  /** Share up to this message (included) instead of the whole chat. */
  upTo?: ShareEnd | null;
  /** Gets the focus back on close (the message's "More actions" button); else the dialog's own trigger does. */
  opener?: HTMLElement | null;
}

/** Open while mounted. */
export function ShareDialog({ conversationId, onClose, upTo: initialEnd = null, opener }: ShareDialogProps) {
  const [upTo, setUpTo] = useState(initialEnd);
  const shares = useShares(conversationId);
  const create = useCreateShare(conversationId);
  const revoke = useRevokeShare(conversationId);
  const [newest, setNewest] = useState<string | null>(null);
  const [copied, setCopied] = useState<string | null>(null);

  const onCopy = (token: string, link: string) =>
    void copyText(link).then((ok) => {
      setCopied(ok ? token : null);
      if (!ok) toast({ title: "Error", description: "Failed to copy the link.", variant: "destructive" });
    });
  const onCreate = () =>
    create.mutate(upTo?.messageId, {
      onSuccess: (share) => {
        setNewest(share.token);
        onCopy(share.token, shareLink(share, window.location.origin));
      },
    });
  const onRevoke = (token: string) =>
    revoke.mutate(token, {
      onSuccess: () => {
        if (newest === token) setNewest(null);
        toast({ title: "Link revoked", description: "Nobody can read the story with it any more." });
      },
      onError: (error) => toast({ title: "Error", description: serverErrorText(error) ?? "Failed to revoke the link.", variant: "destructive" }),
    });

  const list = shares.data?.shares ?? [];
  const created = list.find((share) => share.token === newest);

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        className="max-w-lg"
        onCloseAutoFocus={(event) => {
          if (!opener) return;
          event.preventDefault();
          opener.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>Share this story</DialogTitle>
          <DialogDescription>
            Anyone with a link can read the chat {upTo ? "up to the message below" : "as it is now"} and continue it as their own.
            Hidden messages are left out, and later messages and edits do not change it.
          </DialogDescription>
        </DialogHeader>
        {upTo && !created && (
          <figure aria-label="The story ends at" className="space-y-1 rounded-lg border border-border bg-surface px-3 py-2">
            <figcaption className="flex items-center justify-between gap-2 text-xs text-muted-foreground">
              <span className="min-w-0 truncate">
                Ends at <span className="font-medium text-foreground">{upTo.speaker}</span>
              </span>
              <Button variant="link" size="sm" className="h-auto shrink-0 p-0 text-xs" onClick={() => setUpTo(null)}>
                Share the whole chat instead
              </Button>
            </figcaption>
            <blockquote className="line-clamp-3 text-sm">{excerpt(upTo.content)}</blockquote>
          </figure>
        )}
        {created ? (
          <div className="space-y-2">
            <label htmlFor="share-link" className="text-sm font-medium">
              Share link
            </label>
            <div className="flex gap-2">
              <Input
                id="share-link"
                readOnly
                value={shareLink(created, window.location.origin)}
                onFocus={(e) => e.target.select()}
                className="min-w-0 flex-1 font-mono text-xs"
              />
              <Button variant="secondary" onClick={() => onCopy(created.token, shareLink(created, window.location.origin))} className="shrink-0">
                {copied === created.token ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />} {copied === created.token ? "Copied" : "Copy"}
              </Button>
            </div>
          </div>
        ) : (
          <Button variant="gradient" onClick={onCreate} disabled={create.isPending} className="self-start">
            {create.isPending ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <Share2 aria-hidden="true" />} Create link
          </Button>
        )}
        {create.isError && (
          <p role="alert" className="text-sm text-red-300">
            {serverErrorText(create.error) ?? "Failed to make a link. Please try again."}
          </p>
        )}
        <section aria-labelledby="share-links-heading" className="space-y-2">
          <h3 id="share-links-heading" className="text-sm font-semibold text-muted-foreground">
            Links of this chat
          </h3>
          {shares.isPending && (
            <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
              <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> Loading links…
            </p>
          )}
          {shares.isError && <p className="text-sm text-red-300">{serverErrorText(shares.error) ?? "Failed to load the links."}</p>}
          {shares.isSuccess && list.length === 0 && <p className="text-sm text-muted-foreground">No links yet.</p>}
          {list.length > 0 && (
            <ul className="max-h-64 space-y-2 overflow-y-auto">
              {list.map((share) => {
                const link = shareLink(share, window.location.origin);
                const when = new Date(share.createdAt).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });
                return (
                  <li key={share.token} className="flex items-center gap-2 rounded-lg bg-surface px-3 py-2">
                    <div className="min-w-0 flex-1">
                      <a href={share.url} target="_blank" rel="noreferrer" className="flex items-center gap-1 truncate text-sm font-medium hover:underline">
                        <span className="truncate">{share.title}</span>
                        <ExternalLink aria-hidden="true" className="size-3 shrink-0" />
                      </a>
                      <p className="text-xs text-muted-foreground">
                        {share.messageCount === 1 ? "1 message" : `${share.messageCount} messages`} · {when}
                      </p>
                    </div>
                    <Button variant="ghost" size="icon" aria-label={`Copy link shared ${when}`} onClick={() => onCopy(share.token, link)}>
                      {copied === share.token ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
                    </Button>
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={`Revoke link shared ${when}`}
                      disabled={revoke.isPending}
                      onClick={() => onRevoke(share.token)}
                      className="text-red-300"
                    >
                      <Trash2 aria-hidden="true" />
                    </Button>
                  </li>
                );
              })}
            </ul>
          )}
        </section>
        <DialogFooter>
          {created && (
            <Button variant="outline" onClick={() => setNewest(null)}>
              Another link
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
