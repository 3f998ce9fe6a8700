/**
 * What a person can do with a stored message (docs/decisions/0007-steering-a-chat.md):
 * Edit, Copy, Branch from here, Rewind to here (when messages follow it),
 * Hide from context / Unhide (DESIGN.md "Group chats": kept and shown, left
 * out of every prompt), Share up to here (the owner: a share link of the
 * chat ending at this message, DESIGN.md "Sharing and forks"), Report (the character's replies; issue "Trust and
 * safety") and Delete. A
 * "More actions" menu beside the bubble holds them all; wide screens
 * also get Edit and Copy as buttons. The toolbar shows while the message is
 * hovered or focused, and always on touch screens and phones, where nothing hovers.
 */
import { Copy, Ellipsis, Eye, EyeOff, Flag, GitBranch, History, Lightbulb, Pencil, Pin, Share2, Trash2 } from "lucide-react";
import { type ReactNode, useRef } from "react";
import { Button } from "../../../components/ui/button.tsx";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../../../components/ui/dropdown-menu.tsx";
import { TooltipContent, TooltipGroupItem, TooltipTrigger } from "../../../components/ui/tooltip.tsx";
import { cn } from "../../../lib/utils.ts";
import type { ChatItem } from "../lib/chat-state.ts";

/** The page's answers to the actions; each gets the message. */
export interface MessageActionHandlers {
  onEdit: (item: ChatItem) => void;
  onCopy: (item: ChatItem) => void;
  onBranch: (item: ChatItem) => void;
  onDelete: (item: ChatItem) => void;
  onRewind: (item: ChatItem) => void;
  /** Hide the message from the prompt (true) or bring it back (false). */
  onHide: (item: ChatItem, hidden: boolean) => void;
  /**
   * Opens the Report dialog; offered on the character's replies only (a
   * person does not report their own words). `opener` (the "More actions"
   * button) gets the focus back when it closes.
   */
  onReport: (item: ChatItem, opener: HTMLElement | null) => void;
  /** Pins the message as a memory (its text; DESIGN.md "Memory"). Absent: not offered (a member of a shared room). */
  onPin?: (item: ChatItem) => void;
  /** Opens "Why this reply?" on a character reply; `opener` gets the focus back. Absent: not offered (the prompt is the owner's). */
  onWhy?: (item: ChatItem, opener: HTMLElement | null) => void;
  /**
   * Opens "Share" for the story up to this message (included); offered on
   * messages not hidden (a share leaves hidden ones out). Absent: not offered
   * (only the owner shares). `opener` gets the focus back.
   */
  onShareUpTo?: (item: ChatItem, opener: HTMLElement | null) => void;
}

interface MessageActionsProps {
  item: ChatItem;
  /** Where the toolbar sits: left of the person's bubbles, right of the character's. */
  side: "left" | "right";
  /** Edit, Branch, Rewind and Delete are closed (a reply is awaited or written); Copy stays open. */
  disabled: boolean;
  /** Messages after this one: a rewind deletes them too, and is offered only when there are some. */
  after: number;
  handlers: MessageActionHandlers;
  /** Edit and Delete are offered: the viewer's own message, or the owner (DESIGN.md "Shared rooms"). Default true. */
  mayChange?: boolean;
  /** Rewind and Hide from context are offered: the owner only. Default true. */
  mayRewind?: boolean;
  /** The message is pinned as a memory: "Pin" is not offered again. */
  pinned?: boolean;
}

const ICON_BUTTON = "size-8 rounded-md text-muted-foreground hover:text-foreground [&_svg]:!size-4";

/** An icon button with its name as a tooltip (inside the message list's TooltipProvider). */
function ToolbarButton({ label, tooltip, onClick, disabled, children }: { label: string; tooltip: string; onClick: () => void; disabled?: boolean; children: ReactNode }) {
  return (
    <TooltipGroupItem>
      <TooltipTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={label} disabled={disabled} onClick={onClick} className={ICON_BUTTON}>
          {children}
        </Button>
      </TooltipTrigger>
      <TooltipContent>{tooltip}</TooltipContent>
    </TooltipGroupItem>
  );
}

export function MessageActions({ item, side, disabled, after, handlers, mayChange = true, mayRewind = true, pinned = false }: MessageActionsProps) {
  // Edit, Delete and Rewind move the focus (the editor, a dialog): the menu must not pull it back to its button.
  const focusMoves = useRef(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const moving = (action: (item: ChatItem) => void) => () => {
    focusMoves.current = true;
    action(item);
  };
  return (
    <div
      role="group"
      aria-label="Message actions"
      className={cn(
        "absolute top-0 flex items-center gap-0.5 transition-opacity",
        side === "left" ? "right-full mr-1 flex-row-reverse" : "left-full ml-1",
        // Hidden until the message is hovered or focused, or its menu is open; always shown where nothing hovers.
        "opacity-0 group-hover/message:opacity-100 focus-within:opacity-100 has-[[data-state=open]]:opacity-100 max-sm:opacity-100 [@media(hover:none)]:opacity-100",
      )}
    >
      <DropdownMenu modal={false}>
        <TooltipGroupItem>
          <TooltipTrigger asChild>
            <DropdownMenuTrigger asChild>
              <Button ref={menuButton} variant="ghost" size="icon" aria-label="More actions" className={cn(ICON_BUTTON, "data-[state=open]:bg-surface")}>
                <Ellipsis aria-hidden="true" />
              </Button>
            </DropdownMenuTrigger>
          </TooltipTrigger>
          <TooltipContent>More actions</TooltipContent>
        </TooltipGroupItem>
        <DropdownMenuContent
          align={side === "left" ? "end" : "start"}
          className="w-52"
          onCloseAutoFocus={(event) => {
            if (focusMoves.current) event.preventDefault();
            focusMoves.current = false;
          }}
        >
          {mayChange && (
            <DropdownMenuItem disabled={disabled} onSelect={moving(handlers.onEdit)}>
              <Pencil aria-hidden="true" /> Edit
            </DropdownMenuItem>
          )}
          <DropdownMenuItem onSelect={() => handlers.onCopy(item)}>
            <Copy aria-hidden="true" /> Copy
          </DropdownMenuItem>
          <DropdownMenuItem disabled={disabled} onSelect={() => handlers.onBranch(item)}>
            <GitBranch aria-hidden="true" /> Branch from here
          </DropdownMenuItem>
          {mayRewind && after > 0 && (
            <DropdownMenuItem disabled={disabled} onSelect={moving(handlers.onRewind)}>
              <History aria-hidden="true" /> Rewind to here
            </DropdownMenuItem>
          )}
          {mayRewind && (
            <DropdownMenuItem disabled={disabled} onSelect={() => handlers.onHide(item, !item.hidden)}>
              {item.hidden ? <Eye aria-hidden="true" /> : <EyeOff aria-hidden="true" />} {item.hidden ? "Unhide" : "Hide from context"}
            </DropdownMenuItem>
          )}
          {handlers.onPin && !pinned && (
            <DropdownMenuItem onSelect={() => handlers.onPin?.(item)}>
              <Pin aria-hidden="true" /> Pin to memory
            </DropdownMenuItem>
          )}
          {handlers.onWhy && !item.isUser && (
            <DropdownMenuItem
              onSelect={() => {
                focusMoves.current = true;
                handlers.onWhy?.(item, menuButton.current);
              }}
            >
              <Lightbulb aria-hidden="true" /> Why this reply?
            </DropdownMenuItem>
          )}
          {handlers.onShareUpTo && !item.hidden && (
            <DropdownMenuItem
              onSelect={() => {
                focusMoves.current = true;
                handlers.onShareUpTo?.(item, menuButton.current);
              }}
            >
              <Share2 aria-hidden="true" /> Share up to here
            </DropdownMenuItem>
          )}
          <DropdownMenuSeparator />
          {!item.isUser && (
            // Open while a reply is written: a report changes nothing in the chat.
            <DropdownMenuItem
              onSelect={() => {
                focusMoves.current = true;
                handlers.onReport(item, menuButton.current);
              }}
            >
              <Flag aria-hidden="true" /> Report
            </DropdownMenuItem>
          )}
          {mayChange && (
            <DropdownMenuItem
              disabled={disabled}
              onSelect={moving(handlers.onDelete)}
              className="text-red-300 data-[highlighted]:text-red-200 [&_svg]:!text-red-300"
            >
              <Trash2 aria-hidden="true" /> Delete
            </DropdownMenuItem>
          )}
        </DropdownMenuContent>
      </DropdownMenu>
      <div className={cn("hidden items-center gap-0.5 sm:flex", side === "left" && "flex-row-reverse")}>
        {mayChange && (
          <ToolbarButton label="Edit message" tooltip="Edit" disabled={disabled} onClick={() => handlers.onEdit(item)}>
            <Pencil aria-hidden="true" />
          </ToolbarButton>
        )}
        <ToolbarButton label="Copy message" tooltip="Copy" onClick={() => handlers.onCopy(item)}>
          <Copy aria-hidden="true" />
        </ToolbarButton>
      </div>
    </div>
  );
}
