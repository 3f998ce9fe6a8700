/**
 * "My Chats": the person's conversations, latest activity first, each with
 * the character's avatar and name, the title, a preview of the last message
 * and how long ago it was (the same time the order follows), linking to the
 * chat; a branch also links to the chat it was branched from. A group chat
 * shows its cast's avatars stacked and every name (DESIGN.md "Group chats").
 * A search box finds chats by title, character or the words of any message
 * (server-side, `?q=`; a message that matched shows with the search marked and
 * the row opens the chat at it); each
 * of the person's own chats can be renamed and deleted (after a
 * confirmation); a shared room they joined can only be left (DESIGN.md
 * "Shared rooms": rename and delete are the owner's).
 */
import { formatDistanceToNow } from "date-fns";
import { CloudOff, LogOut, MessagesSquare, Pencil, Search, Trash2 } from "lucide-react";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { type ConversationSummary, conversationTitle } from "../../../../schema/chat.ts";
import { searchPattern } from "../../../../schema/chat-search.ts";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { Avatar } from "../../../components/ui/avatar.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { serverErrorText } from "../../../lib/api-client.ts";
import { useUser } from "../../../lib/auth.ts";
import { useDebouncedValue } from "../../../lib/use-debounced-value.ts";
import { useDeleteConversation } from "../api/delete-conversation.ts";
import { useLeaveConversation } from "../api/members.ts";
import { useConversations } from "../api/get-conversations.ts";
import { plainText } from "../../../lib/action-segments.ts";
import { castNames, castOf } from "../lib/cast.ts";
import { characterInitial } from "../lib/chat-character.ts";
import { BranchedFrom } from "./branched-from.tsx";
import { CastAvatars } from "./cast-avatars.tsx";
import { RenameConversationDialog, type RenameRequest } from "./rename-conversation-dialog.tsx";

const SKELETON_ROWS = 4;
/** Typing pauses this long (ms) before the search is asked. */
const SEARCH_DEBOUNCE_MS = 250;

/** The title a row shows and its actions name: the given one, else "Chat with {name}". */
function shownTitle(conversation: ConversationSummary): string {
  return conversation.title ?? conversationTitle(conversation.character.name);
}

export function ConversationList() {
  // The search lives in the address (`?q=`), so Back from a chat it found shows the same results.
  const [params, setParams] = useSearchParams();
  const search = params.get("q") ?? "";
  const setSearch = (text: string) => setParams(text ? { q: text } : {}, { replace: true });
  const q = useDebouncedValue(search, SEARCH_DEBOUNCE_MS).trim();
  const query = useConversations(true, q);
  const [renaming, setRenaming] = useState<RenameRequest | null>(null);
  const [deleting, setDeleting] = useState<ConversationSummary | null>(null);
  const deleteConversation = useDeleteConversation();
  const { user } = useUser();
  const viewerId = user?.id ?? null;
  const [leaving, setLeaving] = useState<ConversationSummary | null>(null);
  const leaveConversation = useLeaveConversation();

  const confirmLeave = () => {
    if (!leaving || !viewerId || leaveConversation.isPending) return;
    const title = shownTitle(leaving);
    leaveConversation.mutate(
      { conversationId: leaving.id, userId: viewerId },
      {
        onSuccess: () => {
          setLeaving(null);
          toast({ title: "You left the chat", description: `“${title}” is no longer in your chats.` });
        },
        onError: (error) => toast({ title: "Error", description: serverErrorText(error) ?? "Failed to leave the chat. Please try again.", variant: "destructive" }),
      },
    );
  };

  const confirmDelete = () => {
    if (!deleting || deleteConversation.isPending) return;
    const title = shownTitle(deleting);
    deleteConversation.mutate(deleting.id, {
      onSuccess: () => {
        setDeleting(null);
        toast({ title: "Chat deleted", description: `“${title}” is gone.` });
      },
      onError: () => toast({ title: "Error", description: "Failed to delete the chat. Please try again.", variant: "destructive" }),
    });
  };

  // The search box stays once the person has chats (or is searching), so a search with no match can be changed.
  const searching = q !== "" || search !== "";
  const firstPageEmpty = query.isSuccess && query.data.pages.flat().length === 0;
  const showSearch = searching || (query.isSuccess && !firstPageEmpty);

  return (
    <>
      {showSearch && (
        <div role="search" className="relative mb-4">
          <label htmlFor="chat-search" className="sr-only">
            Search your chats
          </label>
          <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
          <Input
            id="chat-search"
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Search by title, character or message"
            className="pl-9"
            maxLength={100}
          />
        </div>
      )}
      <ConversationResults
        query={query}
        q={q}
        onRename={(conversation) => setRenaming({ id: conversation.id, title: shownTitle(conversation) })}
        onDelete={setDeleting}
        onLeave={setLeaving}
        viewerId={viewerId}
      />
      <RenameConversationDialog request={renaming} onClose={() => setRenaming(null)} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this chat?"
        description={deleting ? `“${shownTitle(deleting)}” and every message in it will be deleted. This cannot be undone.` : ""}
        confirmLabel="Delete Chat"
        onConfirm={confirmDelete}
        pending={deleteConversation.isPending}
      />
      <ConfirmDialog
        open={leaving !== null}
        onOpenChange={(open) => !open && setLeaving(null)}
        title="Leave this chat?"
        description={leaving ? `You will no longer see “${shownTitle(leaving)}”. You can come back by any of its invitation links that still works.` : ""}
        confirmLabel="Leave chat"
        onConfirm={confirmLeave}
        pending={leaveConversation.isPending}
      />
    </>
  );
}

interface ConversationResultsProps {
  query: ReturnType<typeof useConversations>;
  /** The search asked (trimmed; "" for none). */
  q: string;
  onRename: (conversation: ConversationSummary) => void;
  onDelete: (conversation: ConversationSummary) => void;
  onLeave: (conversation: ConversationSummary) => void;
  /** The signed-in person's user id (null while unknown). */
  viewerId: string | null;
}

function ConversationResults({ query, q, onRename, onDelete, onLeave, viewerId }: ConversationResultsProps) {
  if (query.isPending) {
    return (
      <ul aria-busy="true" aria-label="Loading your chats" className="divide-y divide-border rounded-2xl border border-border bg-card">
        {Array.from({ length: SKELETON_ROWS }, (_, i) => (
          <li key={i} className="flex items-center gap-4 p-4">
            <Skeleton className="size-12 rounded-full" />
            <div className="flex-1 space-y-2">
              <Skeleton className="h-4 w-40" />
              <Skeleton className="h-3 w-3/4" />
            </div>
          </li>
        ))}
      </ul>
    );
  }

  if (query.isError) {
    return (
      <div className="flex flex-col items-center gap-4 rounded-2xl border border-border bg-card px-6 py-16 text-center">
        <CloudOff aria-hidden="true" className="size-10 text-muted-foreground" />
        <p className="text-lg font-semibold">Failed to load your chats</p>
        <Button variant="secondary" onClick={() => void query.refetch()}>
          Try Again
        </Button>
      </div>
    );
  }

  const conversations = query.data.pages.flat();
  if (conversations.length === 0 && q !== "") {
    return (
      <p role="status" className="rounded-2xl border border-dashed border-border px-6 py-12 text-center text-muted-foreground">
        No chats match “{q}”.
      </p>
    );
  }
  if (conversations.length === 0) {
    return (
      <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-border px-6 py-20 text-center">
        <div className="mb-2 flex size-14 items-center justify-center rounded-2xl bg-gradient-to-br from-primary-strong to-accent-pink shadow-lg shadow-primary/30">
          <MessagesSquare aria-hidden="true" className="size-7 text-white" />
        </div>
        <p className="text-lg font-semibold">You haven't started any chats yet</p>
        <p className="max-w-md text-sm text-muted-foreground">Find a character you like and press Start Chat on their page.</p>
        <Button asChild variant="gradient" size="lg" className="mt-3">
          <Link to="/">
            <Search aria-hidden="true" /> Browse Characters
          </Link>
        </Button>
      </div>
    );
  }

  return (
    <>
      <ul className="divide-y divide-border overflow-hidden rounded-2xl border border-border bg-card">
        {conversations.map((conversation) => (
          <li key={conversation.id}>
            <ConversationRow
              conversation={conversation}
              q={q}
              joined={viewerId !== null && conversation.userId !== viewerId}
              onRename={() => onRename(conversation)}
              onDelete={() => onDelete(conversation)}
              onLeave={() => onLeave(conversation)}
            />
          </li>
        ))}
      </ul>
      {query.hasNextPage && (
        <div className="mt-6 flex justify-center">
          <Button variant="secondary" disabled={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
            {query.isFetchingNextPage ? "Loading..." : "Load More Chats"}
          </Button>
        </div>
      )}
    </>
  );
}

interface ConversationRowProps {
  conversation: ConversationSummary;
  /** The search asked ("" for none): marked in a matching message's words. */
  q: string;
  /** A shared room the person joined (not theirs): Leave instead of Rename and Delete. */
  joined: boolean;
  onRename: () => void;
  onDelete: () => void;
  onLeave: () => void;
}

function ConversationRow({ conversation, q, joined, onRename, onDelete, onLeave }: ConversationRowProps) {
  const { character, branchedFrom } = conversation;
  const cast = castOf(conversation);
  // The time the list is ordered by (GET /api/conversations): the last activity.
  const at = conversation.updatedAt;
  const title = shownTitle(conversation);
  const preview = conversation.lastMessagePreview ? plainText(conversation.lastMessagePreview) : "";
  return (
    // The row's link covers the whole row (its ::after); "Branched from" is a second link above it, not inside it.
    <div className="relative transition-colors hover:bg-surface">
      <div className="flex items-center">
        <Link
          to={conversation.match ? `/chat/${conversation.id}?message=${encodeURIComponent(conversation.match.messageId)}` : `/chat/${conversation.id}`}
          className="flex min-w-0 flex-1 items-center gap-4 p-4 pr-2 after:absolute after:inset-0 after:content-[''] focus-visible:outline-offset-[-2px]"
        >
          {cast.length > 1 ? (
            <CastAvatars cast={cast} className="size-10 sm:size-12" fallbackClassName="text-base sm:text-lg" max={2} />
          ) : (
            <Avatar src={character.avatarUrl} fallback={characterInitial(character.name)} className="size-12" fallbackClassName="text-lg" />
          )}
          <div className="min-w-0 flex-1">
            <div className="flex items-baseline justify-between gap-3">
              <p className="line-clamp-2 font-semibold break-words">{castNames(cast.map((m) => m.name))}</p>
              <time dateTime={at} title={new Date(at).toLocaleString()} className="shrink-0 text-xs text-muted-foreground">
                {formatDistanceToNow(new Date(at), { addSuffix: true })}
              </time>
            </div>
            {conversation.members.length > 1 && <SharedBadge />}
            {conversation.title && <p className="truncate text-sm text-violet-200">{conversation.title}</p>}
            {conversation.match ? (
              <SearchSnippet snippet={conversation.match.snippet} q={q} />
            ) : (
              <p className="truncate text-sm text-muted-foreground">{preview || "No messages yet"}</p>
            )}
          </div>
        </Link>
        {/* Above the row's link (its ::after covers the row). */}
        <div className="relative z-10 flex shrink-0 flex-col gap-1 pr-2 sm:flex-row">
          {joined ? (
            <Button variant="ghost" size="icon" aria-label={`Leave ${title}`} title="Leave" onClick={onLeave}>
              <LogOut aria-hidden="true" />
            </Button>
          ) : (
            <>
              <Button variant="ghost" size="icon" aria-label={`Rename ${title}`} title="Rename" onClick={onRename}>
                <Pencil aria-hidden="true" />
              </Button>
              <Button variant="ghost" size="icon" aria-label={`Delete ${title}`} title="Delete" onClick={onDelete}>
                <Trash2 aria-hidden="true" />
              </Button>
            </>
          )}
        </div>
      </div>
      {branchedFrom && <BranchedFrom from={branchedFrom} className="-mt-3 pr-4 pb-4 pl-20" linkClassName="relative z-10" />}
    </div>
  );
}

/** The words of a message that matched the search, the search marked (schema/chat-search.ts). */
function SearchSnippet({ snippet, q }: { snippet: string; q: string }) {
  const text = plainText(snippet);
  const found = q ? searchPattern(q).exec(text) : null;
  return (
    <p className="line-clamp-2 text-sm text-muted-foreground">
      <span className="sr-only">Found in a message: </span>
      {found ? (
        <>
          {text.slice(0, found.index)}
          <mark className="rounded-sm bg-primary/30 px-0.5 text-foreground">{found[0]}</mark>
          {text.slice(found.index + found[0].length)}
        </>
      ) : (
        text
      )}
    </p>
  );
}

/** A shared room (DESIGN.md "Shared rooms"): more than one person plays in it. */
function SharedBadge() {
  return (
    <span className="mb-0.5 inline-flex items-center rounded-full bg-violet-950 px-2 py-0.5 text-[11px] font-medium text-violet-100">Shared</span>
  );
}
