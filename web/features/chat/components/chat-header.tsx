/**
 * The chat page's header (SPEC.md §2 "Chat"): a back link to the
 * character's page, its avatar (or initial), name and @creator, "Branched
 * from …" for a branch, and the "Conversation options" menu: Start a New
 * Conversation, Add character, Persona, Model, Memory, Author's note,
 * Lorebooks (the owner's books for this chat, with how many), Pinned memories (every member; read-only to all but the owner), and
 * the exports (SillyTavern JSONL, Markdown) as plain download links. A group
 * chat (DESIGN.md "Group chats") shows its cast instead: stacked avatars
 * and every name, and its back link goes to My Chats. "Cast" opens the
 * cast panel. Under it, which model writes the chat: the person's
 * connection ("Model: name · model"), or the offline demo model's notice.
 * A shared room (DESIGN.md "Shared rooms") shows who is here now (the
 * `presence` people) under it; the menu has "Share" and "Invite people" (owner) and
 * "People"; a member's menu leaves out what only the owner may change
 * (adding characters, model, memory, author's note, lorebooks) and keeps their own
 * persona in the room.
 */
import {
  ArrowLeft,
  BookMarked,
  BookOpen,
  Cpu,
  EllipsisVertical,
  FileDown,
  FileText,
  LoaderCircle,
  MessageSquarePlus,
  NotebookPen,
  Pin,
  UserPlus,
  UserRound,
  Users,
  UsersRound,
  Link as LinkIcon,
  Share2,
  Check,
  Image as ImageIcon,
  BellRing,
} from "lucide-react";
import { useRef } from "react";
import { Link } from "react-router";
import { type CastMember, type Conversation, MAX_CAST_SIZE } from "../../../../schema/chat.ts";
import { Avatar } from "../../../components/ui/avatar.tsx";
import { Button } from "../../../components/ui/button.tsx";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../../../components/ui/dropdown-menu.tsx";
import { IconTooltip, Tooltip, TooltipContent, TooltipTrigger } from "../../../components/ui/tooltip.tsx";
import { useUser } from "../../../lib/auth.ts";
import { answeringConnection, connectionLabel, useModelConnections } from "../../../lib/model-connections-query.ts";
import { cn } from "../../../lib/utils.ts";
import { usePersonas } from "../../../lib/personas-query.ts";
import { conversationExportUrl } from "../api/export-conversation.ts";
import { castNames } from "../lib/cast.ts";
import { type ChatCharacter, characterInitial } from "../lib/chat-character.ts";
import { BranchedFrom } from "./branched-from.tsx";
import type { CastPanelView } from "./cast-panel.tsx";
import { CastAvatars } from "./cast-avatars.tsx";
import { CreatorLink } from "../../creators/components/creator-link.tsx";

interface ChatHeaderProps {
  conversation: Conversation;
  character: ChatCharacter;
  onNewConversation: () => void;
  /** A new conversation is being created. */
  startingNew: boolean;
  /** The offline demo model answers (DESIGN.md "Chat models": the UI says so plainly). */
  offlineModel: boolean;
  onOpenPersona: () => void;
  onOpenModel: () => void;
  onOpenMemory: () => void;
  /** Opens the pinned memories (every member; only the owner writes). */
  onOpenPinned: () => void;
  /** The conversation's cast in member order (the character alone in a one-to-one chat). */
  cast: CastMember[];
  onOpenCast: (view: CastPanelView) => void;
  onOpenAuthorNote: () => void;
  /** Opens "Lorebooks" (the owner's). */
  onOpenLorebooks: () => void;
  /** The first character's backgrounds (names), and choosing one; none: no background items. */
  backgrounds?: string[];
  onSetBackground?: (name: string | null) => void;
  /** Turns check-ins on or off (the owner's, one-to-one chats; DESIGN.md turn 4 "Notifications"). */
  onSetCheckIns?: (on: boolean) => void;
  /** The viewer owns the conversation (false: a member of a shared room). */
  isOwner: boolean;
  /** People with the chat open now, in the order they came; shown when the room has more than one member. */
  present: { userId: string; name: string; avatarUrl: string | null }[];
  onOpenInvite: () => void;
  onOpenPeople: () => void;
  /** Opens "Share" (the owner's share links). */
  onOpenShare: () => void;
}

export function ChatHeader({
  conversation,
  character,
  onNewConversation,
  startingNew,
  offlineModel,
  onOpenPersona,
  onOpenModel,
  onOpenMemory,
  onOpenPinned,
  cast,
  onOpenCast,
  onOpenAuthorNote,
  onOpenLorebooks,
  backgrounds = [],
  onSetBackground,
  onSetCheckIns,
  isOwner,
  present,
  onOpenInvite,
  onOpenPeople,
  onOpenShare,
}: ChatHeaderProps) {
  const shared = conversation.members.length > 1;
  const group = cast.length > 1;
  const names = castNames(cast.map((m) => m.name));
  const { branchedFrom } = conversation;
  const { user } = useUser();
  const personas = usePersonas(user !== null);
  const persona = personas.data?.find((p) => p.id === conversation.personaId);
  const connections = useModelConnections(user !== null);
  // The person's own model, when one answers; else the site's (whose offline notice stays).
  const answering = answeringConnection(connections.data ?? [], conversation.modelConnectionId);
  const ownModel = answering && (answering.kind === "openai" || !offlineModel) ? answering : undefined;
  // Persona and Memory open dialogs, which take the focus: the menu must not pull it back to its button.
  const dialogOpening = useRef(false);
  const openDialog = (open: () => void) => () => {
    dialogOpening.current = true;
    open();
  };
  return (
    <header className="border-b border-border bg-card/60 px-2 py-2.5 sm:px-4">
      <div className="flex items-center gap-2 sm:gap-3">
        {group ? (
          <IconTooltip label="Back to My Chats">
            <Button asChild variant="ghost" size="icon" className="shrink-0 text-muted-foreground hover:text-foreground">
              <Link to="/chats" aria-label="Back to My Chats">
                <ArrowLeft aria-hidden="true" className="!size-5" />
              </Link>
            </Button>
          </IconTooltip>
        ) : (
          <IconTooltip label={`Back to ${character.name}`}>
            <Button asChild variant="ghost" size="icon" className="shrink-0 text-muted-foreground hover:text-foreground">
              <Link to={`/character/${character.id}`} aria-label={`Back to ${character.name}`}>
                <ArrowLeft aria-hidden="true" className="!size-5" />
              </Link>
            </Button>
          </IconTooltip>
        )}
        {group ? (
          <CastAvatars cast={cast} className="size-9 sm:size-10" />
        ) : (
          <Avatar src={character.avatarUrl} fallback={characterInitial(character.name)} className="size-10" fallbackClassName="text-base" />
        )}
        <div className="min-w-0 flex-1">
          <h1
            className={cn("text-base leading-tight font-semibold sm:truncate sm:text-lg", group ? "line-clamp-2 break-words" : "truncate")}
            title={group ? names : undefined}
          >
            {group ? names : character.name}
          </h1>
          {group ? (
            <p className="truncate text-xs text-muted-foreground sm:text-sm">
              <span className="max-sm:hidden">Group chat · </span>
              {cast.length} characters
            </p>
          ) : (
            character.creator && (
              <p className="truncate text-xs text-muted-foreground sm:text-sm">
                <CreatorLink creator={character.creator} username={character.creatorUsername} />
              </p>
            )
          )}
          {branchedFrom && <BranchedFrom from={branchedFrom} />}
        </div>
        <IconTooltip label="Cast: who is in this chat">
          <Button variant="ghost" size={group ? "sm" : "icon"} aria-label="Cast" className="shrink-0 text-muted-foreground hover:text-foreground" onClick={() => onOpenCast("cast")}>
            <Users aria-hidden="true" className="!size-5" />
            {group && <span className="hidden sm:inline">Cast</span>}
          </Button>
        </IconTooltip>
        <DropdownMenu modal={false}>
          <Tooltip>
            <TooltipTrigger asChild>
              <DropdownMenuTrigger asChild>
                <Button variant="ghost" size="icon" aria-label="Conversation options" className="shrink-0 data-[state=open]:bg-surface">
                  {startingNew ? (
                    <LoaderCircle aria-hidden="true" className="animate-spin" />
                  ) : (
                    <EllipsisVertical aria-hidden="true" className="!size-5" />
                  )}
                </Button>
              </DropdownMenuTrigger>
            </TooltipTrigger>
            <TooltipContent>Conversation options</TooltipContent>
          </Tooltip>
          <DropdownMenuContent
            align="end"
            className="w-64"
            onCloseAutoFocus={(event) => {
              if (dialogOpening.current) event.preventDefault();
              dialogOpening.current = false;
            }}
          >
            <DropdownMenuItem disabled={startingNew} onSelect={onNewConversation}>
              <MessageSquarePlus aria-hidden="true" /> Start a New Conversation
            </DropdownMenuItem>
            {isOwner && (
              <DropdownMenuItem disabled={cast.length >= MAX_CAST_SIZE} onSelect={openDialog(() => onOpenCast("add"))}>
                <UserPlus aria-hidden="true" /> Add character
              </DropdownMenuItem>
            )}
            {isOwner && (
              <DropdownMenuItem onSelect={openDialog(onOpenShare)}>
                <Share2 aria-hidden="true" /> Share
              </DropdownMenuItem>
            )}
            {isOwner && (
              <DropdownMenuItem onSelect={openDialog(onOpenInvite)}>
                <LinkIcon aria-hidden="true" /> Invite people
              </DropdownMenuItem>
            )}
            <DropdownMenuItem onSelect={openDialog(onOpenPeople)}>
              <UsersRound aria-hidden="true" /> People
              <span aria-hidden="true" className="ml-auto text-xs text-muted-foreground">{conversation.members.length}</span>
            </DropdownMenuItem>
            <DropdownMenuSeparator />
            <DropdownMenuItem onSelect={openDialog(onOpenPersona)}>
              <UserRound aria-hidden="true" /> Persona
              <span className="ml-auto max-w-28 truncate text-xs text-muted-foreground">{persona?.name ?? (isOwner ? "Default" : "None")}</span>
            </DropdownMenuItem>
            {isOwner && (
            <>
            <DropdownMenuItem onSelect={openDialog(onOpenModel)}>
              <Cpu aria-hidden="true" /> Model
              <span className="ml-auto max-w-28 truncate text-xs text-muted-foreground">
                {conversation.modelConnectionId ? (answering?.name ?? "Default") : "Default"}
              </span>
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={openDialog(onOpenMemory)}>
              <BookMarked aria-hidden="true" /> Memory
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={openDialog(onOpenAuthorNote)}>
              <NotebookPen aria-hidden="true" /> Author's note
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={openDialog(onOpenLorebooks)}>
              <BookOpen aria-hidden="true" /> Lorebooks
              {(conversation.lorebookIds?.length ?? 0) > 0 && (
                <span className="ml-auto text-xs text-muted-foreground">
                  {conversation.lorebookIds!.length}
                  <span className="sr-only"> attached</span>
                </span>
              )}
            </DropdownMenuItem>
            {!group && !shared && onSetCheckIns && (
              <DropdownMenuItem role="menuitemcheckbox" aria-checked={conversation.checkIns} onSelect={() => onSetCheckIns(!conversation.checkIns)}>
                <BellRing aria-hidden="true" /> Check-ins from {character.name}
                {conversation.checkIns && <Check aria-hidden="true" className="ml-auto" />}
              </DropdownMenuItem>
            )}
            {backgrounds.length > 0 && onSetBackground && (
              <>
                <DropdownMenuSeparator />
                {[null, ...backgrounds].map((name) => (
                  <DropdownMenuItem key={name ?? ""} onSelect={() => onSetBackground(name)}>
                    <ImageIcon aria-hidden="true" /> {name === null ? "No background" : `Background: ${name}`}
                    {(conversation.background ?? null) === name && <Check aria-label="chosen" className="ml-auto" />}
                  </DropdownMenuItem>
                ))}
              </>
            )}
            </>
            )}
            <DropdownMenuItem onSelect={openDialog(onOpenPinned)}>
              <Pin aria-hidden="true" /> Pinned memories
            </DropdownMenuItem>
            <DropdownMenuSeparator />
            <DropdownMenuItem asChild>
              <a href={conversationExportUrl(conversation.id, "jsonl")} download>
                <FileDown aria-hidden="true" /> Export as SillyTavern (.jsonl)
              </a>
            </DropdownMenuItem>
            <DropdownMenuItem asChild>
              <a href={conversationExportUrl(conversation.id, "markdown")} download>
                <FileText aria-hidden="true" /> Export as Markdown
              </a>
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
      {shared && present.length > 0 && (
        <div className="mt-2 flex min-w-0 items-center gap-2 px-1 text-xs text-muted-foreground">
          <span className="flex shrink-0 items-center" aria-hidden="true">
            {present.slice(0, 5).map((person, index) => (
              <Avatar
                key={person.userId}
                src={person.avatarUrl}
                fallback={characterInitial(person.name)}
                className={cn("size-6 ring-2 ring-card", index > 0 && "-ml-2")}
                fallbackClassName="text-[10px]"
              />
            ))}
          </span>
          <p className="min-w-0 truncate" data-testid="chat-presence">
            <span className="sr-only">Here now: </span>
            <span aria-hidden="true" className="mr-1 inline-block size-1.5 rounded-full bg-emerald-400 align-middle" />
            {present.map((p) => p.name).join(", ")}
          </p>
        </div>
      )}
      {ownModel && (
        <p className="mt-2 flex items-center gap-1.5 px-1 text-xs text-muted-foreground">
          <Cpu aria-hidden="true" className="size-3.5 shrink-0 text-violet-300" />
          <span className="truncate">Model: {connectionLabel(ownModel)}</span>
        </p>
      )}
      {offlineModel && !ownModel && (
        <p className="mt-2 flex items-center gap-1.5 px-1 text-xs text-muted-foreground">
          <Cpu aria-hidden="true" className="size-3.5 shrink-0 text-violet-300" />
          Offline demo model — replies are generated locally from the character card
        </p>
      )}
    </header>
  );
}
