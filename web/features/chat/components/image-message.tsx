/**
 * Pictures in the chat (DESIGN.md "Pictures"): a picture imagined in the
 * chat, on the character's side with its speaker's avatar, with its prompt
 * as the alternative text and caption, and Open (the picture large, in a
 * dialog), Download, Report (anyone in the chat, as a reply is reported),
 * Draw again (anyone: a new version, kept as a reply's swipes, with ‹ n/m ›
 * to choose) and Delete (its asker or the owner); and the
 * placeholder of one being made, with the seconds since it started and
 * Cancel (its asker or the owner).
 */
import { ChevronLeft, ChevronRight, Download, Flag, ImageIcon, Maximize2, RefreshCw, Trash2, X } from "lucide-react";
import { useEffect, useState } from "react";
import { Avatar } from "../../../components/ui/avatar.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "../../../components/ui/dialog.tsx";
import type { Speaker } from "../lib/cast.ts";
import { characterInitial } from "../lib/chat-character.ts";
import type { ChatItem, PendingImage } from "../lib/chat-state.ts";
import { replyVersions } from "../../../../schema/chat-frames.ts";

const ACTION = "h-8 px-2 text-xs text-muted-foreground hover:text-foreground";

/** A file name for a picture: its prompt's first words, else "picture". */
function fileName(item: ChatItem): string {
  const words = (item.prompt ?? "").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "").slice(0, 48);
  return `${words || "picture"}.png`;
}

interface ImageMessageProps {
  item: ChatItem;
  speaker: Speaker;
  /** Its asker or the owner: Delete is offered. */
  mayDelete: boolean;
  /** Nothing is in progress that a delete would be refused for. */
  enabled: boolean;
  onDelete: (item: ChatItem) => void;
  /** Opens the Report dialog for the picture; `opener` gets the focus back. */
  onReport: (item: ChatItem, opener: HTMLElement | null) => void;
  /** A new version being drawn (`image_started` naming it), or null. */
  redrawing: PendingImage | null;
  /** Anyone in the chat may draw it again (not once the chat is read-only). */
  mayRedraw: boolean;
  /** Whether this person may cancel that drawing (its asker or the owner). */
  mayCancel: (pending: PendingImage) => boolean;
  onRedraw: (item: ChatItem) => void;
  onChooseVersion: (item: ChatItem, index: number) => void;
  onCancel: (requestId: string) => void;
}

export function ImageMessage({ item, speaker, mayDelete, enabled, onDelete, onReport, redrawing, mayRedraw, mayCancel, onRedraw, onChooseVersion, onCancel }: ImageMessageProps) {
  const [open, setOpen] = useState(false);
  const alt = item.prompt ? `Picture: ${item.prompt}` : "Picture of the scene";
  // Its versions, as a reply's swipes: `alternatives` are the others' paths (image-rows.ts).
  const { versions, current } = replyVersions({ content: item.imageUrl ?? "", alternatives: item.alternatives, swipeIndex: item.swipeIndex });
  return (
    <li className="group/message flex items-start gap-2.5" data-message-id={item.id} data-image-message>
      <Avatar src={speaker.avatarUrl} fallback={characterInitial(speaker.name)} className="mt-0.5 size-8" />
      <figure className="flex min-w-0 max-w-[calc(100%-5.25rem)] flex-col items-start gap-1 sm:max-w-[60%]">
        <button
          type="button"
          onClick={() => setOpen(true)}
          aria-label={`Open the picture large: ${item.prompt ?? "the scene"}`}
          className="cursor-zoom-in overflow-hidden rounded-2xl rounded-tl-sm border border-border focus-visible:outline-2 focus-visible:outline-ring"
        >
          <img src={item.imageUrl} alt={alt} width={item.width} height={item.height} loading="lazy" className="block h-auto w-full max-w-sm bg-surface" />
        </button>
        {redrawing && <Redrawing pending={redrawing} mayCancel={mayCancel(redrawing)} onCancel={onCancel} />}
        {item.prompt && <figcaption className="line-clamp-2 px-1 text-xs text-muted-foreground">{item.prompt}</figcaption>}
        <div className="flex flex-wrap items-center gap-1">
          {versions.length > 1 && (
            <div role="group" aria-label="Versions of the picture" className="flex items-center">
              <Button variant="ghost" size="icon" className="size-8" aria-label="Previous version" disabled={current === 0 || !enabled} onClick={() => onChooseVersion(item, current - 1)}>
                <ChevronLeft aria-hidden="true" />
              </Button>
              <span className="min-w-10 text-center text-xs text-muted-foreground tabular-nums">
                {current + 1}/{versions.length}
              </span>
              <Button
                variant="ghost"
                size="icon"
                className="size-8"
                aria-label="Next version"
                disabled={current === versions.length - 1 || !enabled}
                onClick={() => onChooseVersion(item, current + 1)}
              >
                <ChevronRight aria-hidden="true" />
              </Button>
            </div>
          )}
          <Button variant="ghost" size="sm" className={ACTION} onClick={() => setOpen(true)}>
            <Maximize2 aria-hidden="true" /> Open
          </Button>
          <Button variant="ghost" size="sm" className={ACTION} asChild>
            <a href={item.imageUrl} download={fileName(item)}>
              <Download aria-hidden="true" /> Download
            </a>
          </Button>
          <Button variant="ghost" size="sm" className={ACTION} onClick={(event) => onReport(item, event.currentTarget)}>
            <Flag aria-hidden="true" /> Report
          </Button>
          {mayRedraw && (
            <Button variant="ghost" size="sm" className={ACTION} disabled={!enabled || redrawing !== null} onClick={() => onRedraw(item)}>
              <RefreshCw aria-hidden="true" /> Draw again
            </Button>
          )}
          {mayDelete && (
            <Button variant="ghost" size="sm" className={ACTION} disabled={!enabled} onClick={() => onDelete(item)}>
              <Trash2 aria-hidden="true" /> Delete
            </Button>
          )}
        </div>
      </figure>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="max-w-[min(96vw,56rem)] p-3">
          <DialogTitle className="sr-only">Picture</DialogTitle>
          <img src={item.imageUrl} alt={alt} width={item.width} height={item.height} className="h-auto max-h-[80vh] w-full rounded-lg object-contain" />
          <DialogDescription className="text-sm text-muted-foreground">{item.prompt}</DialogDescription>
        </DialogContent>
      </Dialog>
    </li>
  );
}

/** Whole seconds since `startedAt` (ISO 8601), ticking once a second. */
function useElapsedSeconds(startedAt: string): number {
  const since = Date.parse(startedAt);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return Math.max(0, Math.floor((now - since) / 1000));
}

/** A new version of a picture being drawn: the seconds since it started, and Cancel. */
function Redrawing({ pending, mayCancel, onCancel }: { pending: PendingImage; mayCancel: boolean; onCancel: (requestId: string) => void }) {
  const seconds = useElapsedSeconds(pending.startedAt);
  return (
    <div className="flex items-center gap-2 px-1 text-xs text-muted-foreground" aria-busy="true">
      <ImageIcon aria-hidden="true" className="size-4 animate-pulse" />
      <p role="status">
        Drawing it again… <span data-elapsed>{seconds} s</span>
      </p>
      {mayCancel && (
        <Button variant="ghost" size="sm" className={ACTION} onClick={() => onCancel(pending.requestId)}>
          <X aria-hidden="true" /> Cancel
        </Button>
      )}
    </div>
  );
}

interface ImagePlaceholderProps {
  pending: PendingImage;
  speaker: Speaker;
  /** Its asker or the owner: Cancel is offered. */
  mayCancel: boolean;
  onCancel: (requestId: string) => void;
}

export function ImagePlaceholder({ pending, speaker, mayCancel, onCancel }: ImagePlaceholderProps) {
  const seconds = useElapsedSeconds(pending.startedAt);
  return (
    <li className="flex items-start gap-2.5" data-image-placeholder={pending.requestId} aria-busy="true">
      <Avatar src={speaker.avatarUrl} fallback={characterInitial(speaker.name)} className="mt-0.5 size-8" />
      <div className="flex w-56 max-w-[calc(100%-5.25rem)] flex-col gap-1">
        <div className="flex aspect-square w-full flex-col items-center justify-center gap-2 rounded-2xl rounded-tl-sm border border-dashed border-muted-foreground/50 bg-surface text-muted-foreground">
          <ImageIcon aria-hidden="true" className="size-8 animate-pulse" />
          <p role="status" className="text-sm">
            Imagining… <span data-elapsed>{seconds} s</span>
          </p>
        </div>
        {pending.prompt && <p className="line-clamp-2 px-1 text-xs text-muted-foreground">{pending.prompt}</p>}
        {mayCancel && (
          <Button variant="ghost" size="sm" className={`${ACTION} self-start`} onClick={() => onCancel(pending.requestId)}>
            <X aria-hidden="true" /> Cancel
          </Button>
        )}
      </div>
    </li>
  );
}
