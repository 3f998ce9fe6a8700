/**
 * The chat page's header (SPEC.md §2 "Chat"): a back link to the
 * character's page, its avatar (or initial), name and @creator, and a menu
 * with "Start a New Conversation".
 */
import { ArrowLeft, Cpu, EllipsisVertical, LoaderCircle, MessageSquarePlus } from "lucide-react";
import { Link } from "react-router";
import { Avatar } from "../../../components/ui/avatar.tsx";
import { Button } from "../../../components/ui/button.tsx";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "../../../components/ui/dropdown-menu.tsx";
import { type ChatCharacter, characterInitial } from "../lib/chat-character.ts";

interface ChatHeaderProps {
  character: ChatCharacter;
  onNewConversation: () => void;
  /** A new conversation is being created. */
  startingNew: boolean;
  /** The offline demo model answers (DESIGN.md "Chat models": the UI says so plainly). */
  offlineModel: boolean;
}

export function ChatHeader({ character, onNewConversation, startingNew, offlineModel }: ChatHeaderProps) {
  return (
    <header className="border-b border-border bg-card/60 px-2 py-2.5 sm:px-4">
      <div className="flex items-center gap-2 sm:gap-3">
        <Button asChild variant="ghost" size="icon" className="shrink-0 text-muted-foreground hover:text-foreground">
          <Link to={`/character/${character.id}`} aria-label={`Back to ${character.name}`}>
            <ArrowLeft aria-hidden="true" className="!size-5" />
          </Link>
        </Button>
        <Avatar src={character.avatarUrl} fallback={characterInitial(character.name)} className="size-10" fallbackClassName="text-base" />
        <div className="min-w-0 flex-1">
          <h1 className="truncate text-base leading-tight font-semibold sm:text-lg">{character.name}</h1>
          {character.creator && <p className="truncate text-xs text-muted-foreground sm:text-sm">@{character.creator}</p>}
        </div>
        <DropdownMenu modal={false}>
          <DropdownMenuTrigger asChild>
            <Button variant="ghost" size="icon" aria-label="Conversation options" className="shrink-0 data-[state=open]:bg-surface">
              {startingNew ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <EllipsisVertical aria-hidden="true" className="!size-5" />}
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end" className="w-64">
            <DropdownMenuItem disabled={startingNew} onSelect={onNewConversation}>
              <MessageSquarePlus aria-hidden="true" /> Start a New Conversation
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
      {offlineModel && (
        <p className="mt-2 flex items-center gap-1.5 px-1 text-xs text-muted-foreground">
          <Cpu aria-hidden="true" className="size-3.5 shrink-0 text-violet-300" />
          Offline demo model — replies are generated locally from the character card
        </p>
      )}
    </header>
  );
}
