/**
 * A live conversation (SPEC.md §2 "Chat", §4 "Chat send", "Real-time
 * connection", "New conversation from chat menu"): the header, the
 * messages, the input and the footer line, driven by the socket's frames
 * through `chatReducer` (lib/chat-state.ts). Steering the chat
 * (docs/decisions/0007-steering-a-chat.md): edit, delete and rewind
 * (after a confirmation), continue and memory go over the socket with a
 * clientId each; branch and the persona go over HTTP. A character's reply
 * can be reported (issue "Trust and safety"). Group chats (DESIGN.md "Group
 * chats"): the cast panel, "Let … speak" (`generate`), each reply's
 * speaker, hide from context and the author's note; `cast_updated` from
 * another tab refetches the conversation. Shared rooms (DESIGN.md "Shared
 * rooms"): who is here (`presence`) in the header, "… is typing" above the
 * input (the input sends `typing` at most every 3 s), "Invite people" and
 * "People"; a member's menus offer only a member's powers. The picture
 * actions, the jump to a message (`?message=`) and the Visual novel switch
 * are hooks of their own (hooks/use-picture-actions.ts, use-message-jump.ts,
 * use-visual-novel.ts), as are the message menu (use-message-actions.ts) and
 * the memory and author's note saves (use-steer-dialogs.ts).
 */
import { ImageIcon, Sparkles } from "lucide-react";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useNavigate } from "react-router";
import {
  type CastMember,
  type ChatMessage,
  type Conversation,
  castTitle,
} from "../../../../schema/chat.ts";
import { useUser } from "../../../lib/auth.ts";
import { Button } from "../../../components/ui/button.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { isUnauthorizedError, serverErrorText } from "../../../lib/api-client.ts";
import { notifyUnauthorized } from "../../../lib/unauthorized.ts";
import { useCreateGroupConversation } from "../api/create-group-conversation.ts";
import { conversationQueryOptions } from "../api/get-conversation.ts";
import { useRateMessage } from "../api/rate-message.ts";
import { useStartNewConversation } from "../api/start-new-conversation.ts";
import { useSetConversationCheckIns } from "../api/set-conversation-check-ins.ts";
import { useSetConversationBackground } from "../api/set-conversation-background.ts";
import { backgroundPicture, stageFigures } from "../lib/expressions.ts";
import { useChatSocket } from "../hooks/use-chat-socket.ts";
import { useComposerSpace } from "../hooks/use-composer-space.ts";
import { useFormerSpeakers } from "../hooks/use-former-speakers.ts";
import { useMessageActions } from "../hooks/use-message-actions.ts";
import { useMessageJump } from "../hooks/use-message-jump.ts";
import { useSteerDialogs } from "../hooks/use-steer-dialogs.ts";
import { usePictureActions } from "../hooks/use-picture-actions.ts";
import { useVisualNovel } from "../hooks/use-visual-novel.ts";
import { ReplyPlayerContext, usePagePlayer, useVoiceMode } from "../hooks/use-reply-player.ts";
import { castNames, castOf, type KnownCharacter, speakerOf, unknownSpeakers } from "../lib/cast.ts";
import type { ChatCharacter } from "../lib/chat-character.ts";
import { newClientId } from "../lib/chat-socket.ts";
import { ImagineDialog } from "./imagine-dialog.tsx";
import { IMAGE_USAGE_KEY } from "../api/get-image-usage.ts";
import {
  type ChatAction,
  type ChatItem,
  chatFooterText,
  chatReducer,
  conversationMessageCount,
  initialChatState,
  isBusy,
  isSteerPending,
  typingNames,
  typingText,
  type SteeringFrame,
  unansweredSteering,
  unsentMessages,
} from "../lib/chat-state.ts";
import { canGenerateReply } from "../lib/chat-selectors.ts";
import { AuthorNoteDialog } from "./author-note-dialog.tsx";
import { LorebooksDialog } from "./lorebooks-dialog.tsx";
import { CastPanel, type CastPanelView } from "./cast-panel.tsx";
import { ChatComposer } from "./chat-composer.tsx";
import { ChatHeader } from "./chat-header.tsx";
import { ConnectionNotice } from "./connection-notice.tsx";
import { InviteDialog } from "./invite-dialog.tsx";
import { type ShareEnd, ShareDialog } from "./share-dialog.tsx";
import { PeoplePanel } from "./people-panel.tsx";
import { type DeleteRequest, DeleteMessagesDialog } from "./delete-messages-dialog.tsx";
import { MemoryDialog } from "./memory-dialog.tsx";
import { MessageList } from "./message-list.tsx";
import { ModelPickerDialog } from "./model-picker-dialog.tsx";
import { PersonaPickerDialog } from "./persona-picker-dialog.tsx";
import { FooterSwitch } from "./footer-switch.tsx";
import { VisualNovelStage } from "./visual-novel-stage.tsx";
import { useMemories } from "../../memory/api/memories.ts";
import { MemoryPanel } from "../../memory/components/memory-panel.tsx";
import { WhyThisReplyDialog } from "../../memory/components/why-this-reply-dialog.tsx";

/** Said when a steering frame could not be sent (the socket is down). */
function notConnected() {
  toast({ title: "Not connected", description: "The chat is reconnecting. Please try again in a moment.", variant: "destructive" });
}

interface ChatRoomProps {
  conversation: Conversation;
  character: ChatCharacter;
  /** `GET …/messages`, once it answered; the socket's `history_sync` supersedes it. */
  initialMessages: ChatMessage[] | undefined;
}

export function ChatRoom({ conversation, character, initialMessages }: ChatRoomProps) {
  const conversationId = conversation.id;
  const navigate = useNavigate();
  const [state, setState] = useState(initialChatState);
  // The reducer runs here rather than in useReducer so a frame handler can
  // act on the state it just produced (resending after history_sync).
  const stateRef = useRef(state);
  const dispatch = useCallback((action: ChatAction) => {
    stateRef.current = chatReducer(stateRef.current, action);
    setState(stateRef.current);
  }, []);
  const stickToBottom = useRef(true);
  const player = usePagePlayer();
  const [voiceMode, setVoiceMode] = useVoiceMode();
  const playerContext = useMemo(() => ({ player, conversationId }), [player, conversationId]);
  // Voice mode: a reply that just finished streaming is read aloud (not one stopped halfway or failed).
  const lastStreamingId = useRef<string | null>(null);
  useEffect(() => {
    const finished = lastStreamingId.current;
    lastStreamingId.current = state.streamingId;
    if (!voiceMode || !finished || state.streamingId !== null) return;
    const reply = state.messages.find((message) => message.id === finished);
    if (reply && !reply.isUser && reply.status === "saved" && !reply.stopped) void player.play(conversationId, reply.id);
  }, [state.streamingId, state.messages, voiceMode, player, conversationId]);
  const messageBox = useRef<HTMLTextAreaElement | null>(null);
  /** Gives the message box the focus back (after the memory dialog or an edit closes). */
  const focusMessageBox = useCallback(() => messageBox.current?.focus(), []);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [deleteRequest, setDeleteRequest] = useState<DeleteRequest | null>(null);
  const [personaOpen, setPersonaOpen] = useState(false);
  const [modelOpen, setModelOpen] = useState(false);
  const [castView, setCastView] = useState<CastPanelView | null>(null);
  const [lorebooksOpen, setLorebooksOpen] = useState(false);
  const queryClient = useQueryClient();
  const [inviteOpen, setInviteOpen] = useState(false);
  /** "Share" is open: for the whole chat (from the chat menu) or up to a message (its "Share up to here"). */
  const [share, setShare] = useState<{ upTo: ShareEnd | null; opener: HTMLElement | null } | null>(null);
  const [peopleOpen, setPeopleOpen] = useState(false);
  const [pinnedOpen, setPinnedOpen] = useState(false);
  /** The reply whose "Why this reply?" is open, and the button to give the focus back to. */
  const [why, setWhy] = useState<{ messageId: string; opener: HTMLElement | null } | null>(null);
  const memories = useMemories(conversationId);
  const pinnedIds = useMemo(
    () => new Set((memories.data?.memories ?? []).flatMap((memory) => (memory.messageId ? [memory.messageId] : []))),
    [memories.data],
  );
  const { user } = useUser();
  const viewerId = user?.id ?? null;
  // Until the person is known, a one-person chat is theirs; a shared one shows a member's powers.
  const isOwner = viewerId === null ? conversation.members.length <= 1 : conversation.userId === viewerId;
  const shared = conversation.members.length > 1;
  // "… is typing" lasts TYPING_SHOWN_MS after the last typing frame: the page looks again every second while it shows.
  const [now, setNow] = useState(() => Date.now());
  const typingNow = typingNames(state, now);
  useEffect(() => {
    if (typingNames(state, Date.now()).length === 0) return;
    const timer = setTimeout(() => setNow(Date.now()), 1_000);
    return () => clearTimeout(timer);
  }, [state, now]);
  const avatarOf = new Map(conversation.members.map((m) => [m.userId, m.avatarUrl]));

  const cast = castOf(conversation);
  const group = cast.length > 1;
  const names = castNames(cast.map((m) => m.name));
  const title = castTitle(cast.map((m) => m.name));
  // Every character this page has seen in the cast: a reply of one removed since still shows its name;
  // speakers removed before the page opened are read from the catalog.
  const known = useRef(new Map<number, KnownCharacter>());
  for (const member of cast) known.current.set(member.id, member);
  const former = useFormerSpeakers(unknownSpeakers(state.messages, cast, known.current));
  for (const [id, found] of former) known.current.set(id, found);
  const speakerFor = (characterId: number | undefined) => speakerOf(characterId, cast, known.current, character);
  // In the manual order, or with everyone muted, nobody answers until asked ("Let … speak").
  const replyExpected = (conversation.replyOrder ?? "natural") !== "manual" && cast.some((m) => !m.muted);

  useEffect(() => {
    if (initialMessages) dispatch({ type: "loaded", messages: initialMessages });
  }, [initialMessages, dispatch]);

  // `steer` is defined once the socket is: the dialogs call it only when a person saves.
  const dialogs = useSteerDialogs({ steer: (frame) => steer(frame), names });
  const socket = useChatSocket({
    conversationId,
    enabled: true,
    onFrame: (frame, send) => {
      const at = Date.now();
      const before = stateRef.current.people.map((p) => p.userId).join(",");
      dispatch({ type: "frame", frame, at });
      if (frame.type === "typing") setNow(at);
      // Someone came or went (they may have just joined by a link, left or been removed): the members come with the conversation.
      if (frame.type === "presence" && frame.people.map((p) => p.userId).join(",") !== before) {
        void queryClient.invalidateQueries({ queryKey: conversationQueryOptions(conversationId).queryKey, exact: true });
      }
      dialogs.onFrame(frame);
      // Another tab (or this one's HTTP call) changed the cast or the reply order: names and avatars come with the conversation.
      if (frame.type === "cast_updated") {
        void queryClient.invalidateQueries({ queryKey: conversationQueryOptions(conversationId).queryKey, exact: true });
      }
      // A picture made (or refused, or rate limited): the day's count moved.
      if (frame.type === "image_ready" || (frame.type === "error" && frame.requestId !== undefined)) {
        void queryClient.invalidateQueries({ queryKey: IMAGE_USAGE_KEY });
      }
      if (frame.type !== "history_sync") return;
      // Sent before a reconnect and not in the server's history: send again
      // (same clientId, so the server stores each once).
      for (const item of unsentMessages(stateRef.current)) {
        send({ type: "chat_message", conversationId, content: item.content, isUser: true, clientId: item.clientId! });
      }
      // Steering frames not answered: the server applies each clientId once, so a resend is safe.
      for (const steer of unansweredSteering(stateRef.current)) send({ ...steer, conversationId });
    },
  });

  /** Sends a steering frame (each with a clientId of its own); false, with a toast, when the socket is down. */
  const steer = (frame: SteeringFrame): boolean => {
    if (!socket.send({ ...frame, conversationId })) {
      notConnected();
      return false;
    }
    dispatch({ type: "steer", frame, at: new Date().toISOString() });
    return true;
  };

  const { imagineOpen, setImagineOpen, onImagine, onDeleteImage, onCancelImage, onRedrawImage, onChooseImageVersion } = usePictureActions({
    conversationId,
    send: socket.send,
    stickToBottom,
    notConnected,
  });

  const onSend = (content: string): boolean => {
    const clientId = newClientId();
    // Disconnected: dropped with a console warning (SPEC.md §4); the text stays in the input.
    if (!socket.send({ type: "chat_message", conversationId, content, isUser: true, clientId })) return false;
    stickToBottom.current = true;
    dispatch({ type: "send", clientId, content, createdAt: new Date().toISOString(), awaitReply: replyExpected });
    return true;
  };

  const onRetry = (item: ChatItem) => {
    if (!item.clientId || isBusy(stateRef.current)) return;
    if (!socket.send({ type: "chat_message", conversationId, content: item.content, isUser: true, clientId: item.clientId })) return;
    stickToBottom.current = true;
    dispatch({ type: "retry", clientId: item.clientId, awaitReply: replyExpected });
  };

  const onRegenerate = () => {
    if (isBusy(stateRef.current)) return;
    if (!socket.send({ type: "regenerate", conversationId })) return;
    stickToBottom.current = true;
    dispatch({ type: "regenerate" });
  };

  const onSwipe = (item: ChatItem, index: number) => {
    if (!socket.send({ type: "swipe", conversationId, messageId: item.id, index })) return;
    dispatch({ type: "swipe", messageId: item.id, index });
  };

  const onStop = useCallback(() => {
    socket.send({ type: "stop", conversationId });
  }, [socket.send, conversationId]);

  // Escape stops a reply being written, wherever the focus is on the page,
  // unless something else takes it: an open dialog or menu, or the message editor (which cancels and prevents the default).
  const streaming = state.streamingId !== null;
  useEffect(() => {
    if (!streaming) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest('[role="dialog"], [role="alertdialog"], [role="menu"]')) return;
      if (document.querySelector('[role="dialog"], [role="alertdialog"], [role="menu"]')) return;
      onStop();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [streaming, onStop]);

  const onContinue = () => {
    if (isBusy(stateRef.current)) return;
    stickToBottom.current = true;
    steer({ type: "continue", clientId: newClientId() });
  };

  const onSaveEdit = (item: ChatItem, content: string): boolean =>
    steer({ type: "edit_message", messageId: item.id, content, clientId: newClientId() });

  const onConfirmDelete = (request: DeleteRequest) => {
    setDeleteRequest(null);
    steer({ type: request.kind === "rewind" ? "rewind" : "delete_message", messageId: request.messageId, clientId: newClientId() });
  };

  /** "Let … speak": the member replies now. False when the socket is down or a reply is on its way. */
  const onLetSpeak = (member: CastMember): boolean => {
    if (isBusy(stateRef.current)) return false;
    if (!socket.send({ type: "generate", conversationId, characterId: member.id, clientId: newClientId() })) {
      notConnected();
      return false;
    }
    stickToBottom.current = true;
    dispatch({ type: "generate", characterId: member.id });
    return true;
  };

  const { actions, reportDialog } = useMessageActions({
    conversationId,
    ownerLive: isOwner && socket.status !== "gone",
    stateRef,
    steer,
    speakerName: (characterId) => speakerFor(characterId).name,
    setEditingId,
    setDeleteRequest,
    setWhy,
    setShare,
  });

  const jumpTo = useMessageJump(state.messages, stickToBottom);

  const rate = useRateMessage(conversationId);
  const onRate = (item: ChatItem, value: 1 | -1) => {
    const previous = item.rating;
    const next = previous === value ? null : value;
    dispatch({ type: "rate", messageId: item.id, rating: next });
    rate.mutate(
      { messageId: item.id, value: next ?? 0 },
      {
        onError: (error) => {
          dispatch({ type: "rate", messageId: item.id, rating: previous });
          if (isUnauthorizedError(error)) notifyUnauthorized("view this conversation");
          else toast({ title: "Error", description: "Failed to rate the reply. Please try again.", variant: "destructive" });
        },
      },
    );
  };

  const startNew = useStartNewConversation();
  const startNewGroup = useCreateGroupConversation();
  const onNewConversation = () => {
    const handlers = {
      onSuccess: (fresh: { id: string }) => {
        navigate(`/chat/${fresh.id}`);
        toast({ title: "New conversation started", description: "You're now in a fresh conversation. Previous history is preserved." });
      },
      onError: (error: Error) => {
        if (isUnauthorizedError(error)) notifyUnauthorized("start a chat");
        else toast({ title: "Error", description: "Failed to start a new conversation. Please try again.", variant: "destructive" });
      },
    };
    // A group starts afresh with the same cast, in the same order.
    if (group) startNewGroup.mutate(cast.map((m) => m.id), handlers);
    else startNew.mutate(conversation.characterId, handlers);
  };

  const composerArea = useComposerSpace();
  // The chat's background (DESIGN.md "Character assets"), one of its first character's.
  const background = backgroundPicture(cast[0]?.assets, conversation.background);
  const setBackground = useSetConversationBackground(conversation.id);
  const setCheckIns = useSetConversationCheckIns(conversation.id);
  const chatModel = state.chatModel ?? conversation.chatModel;
  // Removed, the chat deleted, suspended: the page stays to read, with nothing left to send (issue 41).
  const readOnly = socket.status === "gone";
  const loading = !state.synced && initialMessages === undefined;
  // The visual-novel layout (issue 37): offered when a character of the cast has expressions.
  const { visualNovel, setVisualNovel, hasExpressions } = useVisualNovel(cast);

  return (
    <ReplyPlayerContext.Provider value={playerContext}>
    <div className="mx-auto flex h-[calc(100dvh-4rem)] w-full max-w-4xl flex-col md:px-4 md:py-4">
      <title>{`${title} — Fabled`}</title>
      <section
        aria-label={title}
        data-background={background?.name}
        className="flex min-h-0 flex-1 flex-col overflow-hidden bg-card bg-cover bg-center md:rounded-2xl md:border md:border-border"
        // The background under a dark veil, so every text keeps its contrast (bubbles are opaque anyway).
        style={background ? { backgroundImage: `linear-gradient(rgb(15 15 20 / 0.82), rgb(15 15 20 / 0.82)), url("${background.url}")` } : undefined}
      >
        <ChatHeader
          conversation={conversation}
          character={character}
          onNewConversation={onNewConversation}
          startingNew={startNew.isPending || startNewGroup.isPending}
          offlineModel={chatModel === "offline"}
          onOpenPersona={() => setPersonaOpen(true)}
          onOpenModel={() => setModelOpen(true)}
          onOpenMemory={dialogs.memory.show}
          onOpenPinned={() => setPinnedOpen(true)}
          cast={cast}
          onOpenCast={setCastView}
          onOpenAuthorNote={dialogs.authorNote.show}
          onOpenLorebooks={() => setLorebooksOpen(true)}
          isOwner={isOwner}
          backgrounds={(cast[0]?.assets ?? []).filter((asset) => asset.type === "background").map((asset) => asset.name)}
          onSetBackground={(name) =>
            setBackground.mutate(name, {
              onError: (error) => toast({ title: "Error", description: serverErrorText(error) ?? "Could not change the background", variant: "destructive" }),
            })
          }
          onSetCheckIns={(on) =>
            setCheckIns.mutate(on, {
              onSuccess: () =>
                toast({ title: on ? `${character.name} will check in` : "Check-ins off", description: on ? "After a day of quiet, one message, never in your quiet hours." : undefined }),
              onError: (error) => toast({ title: "Error", description: serverErrorText(error) ?? "Could not change check-ins", variant: "destructive" }),
            })
          }
          present={socket.status === "gone" ? [] : state.people.map((p) => ({ ...p, avatarUrl: avatarOf.get(p.userId) ?? null }))}
          onOpenInvite={() => setInviteOpen(true)}
          onOpenShare={() => setShare({ upTo: null, opener: null })}
          onOpenPeople={() => setPeopleOpen(true)}
        />
        <MessageList
          state={state}
          names={names}
          speakerOf={speakerFor}
          group={group}
          loading={loading}
          stickToBottom={stickToBottom}
          onRate={onRate}
          onRegenerate={onRegenerate}
          onSwipe={onSwipe}
          onRetry={onRetry}
          onDismissError={() => dispatch({ type: "dismissError" })}
          onContinue={onContinue}
          editingId={editingId}
          actions={actions}
          onSaveEdit={onSaveEdit}
          onCancelEdit={() => {
            setEditingId(null);
            focusMessageBox();
          }}
          viewerId={viewerId}
          isOwner={isOwner}
          shared={shared}
          readOnly={readOnly}
          connectionHref={`/settings/models?edit=${conversation.modelConnectionId ?? "default"}`}
          pinnedIds={pinnedIds}
          onDeleteImage={onDeleteImage}
          onCancelImage={onCancelImage}
          onRedrawImage={onRedrawImage}
          onChooseImageVersion={onChooseImageVersion}
        />
        {visualNovel && hasExpressions && <VisualNovelStage figures={stageFigures(state.messages, speakerFor)} />}
        <div ref={composerArea} className="border-t border-border bg-card px-3 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] sm:px-4">
          <div className="mx-auto max-w-3xl">
            <ConnectionNotice status={socket.status} goneReason={socket.goneReason} onReconnect={socket.reconnect} />
            <p aria-live="polite" className="mb-1.5 min-h-4 px-1 text-xs text-muted-foreground italic empty:hidden">
              {typingText(typingNow)}
            </p>
            {!readOnly && socket.status === "open" && (
              <div className="mb-2 flex justify-center gap-2">
                {canGenerateReply(state) && (
                  <Button variant="secondary" size="sm" onClick={onRegenerate}>
                    <Sparkles aria-hidden="true" /> Generate reply
                  </Button>
                )}
                <Button variant="secondary" size="sm" onClick={() => setImagineOpen(true)}>
                  <ImageIcon aria-hidden="true" /> Imagine
                </Button>
              </div>
            )}
            {!readOnly && (
            <ChatComposer
              ref={messageBox}
              characterName={names}
              connection={socket.status}
              // In a room of several people a message is never refused as busy: it waits for the round (DESIGN.md "Shared rooms").
              busy={isBusy(state) && !shared}
              streaming={streaming}
              onSend={onSend}
              onStop={onStop}
              onTyping={shared ? () => socket.send({ type: "typing", conversationId }) : undefined}
            />
            )}
            <div className="mt-2 flex flex-wrap items-center justify-center gap-x-4 gap-y-1">
              <p className="text-center text-xs text-muted-foreground">{chatFooterText(conversationMessageCount(state))}</p>
              {hasExpressions && <FooterSwitch label="Visual novel" checked={visualNovel} onCheckedChange={setVisualNovel} />}
              <FooterSwitch
                label="Voice mode"
                checked={voiceMode}
                onCheckedChange={(on) => {
                  setVoiceMode(on);
                  if (!on) player.stop();
                }}
              />
            </div>
          </div>
        </div>
      </section>
      {reportDialog}
      <ImagineDialog open={imagineOpen} onClose={() => setImagineOpen(false)} onImagine={onImagine} />
      <DeleteMessagesDialog request={deleteRequest} onCancel={() => setDeleteRequest(null)} onConfirm={onConfirmDelete} />
      {castView && (
        <CastPanel
          conversation={conversation}
          initialView={castView}
          busy={isBusy(state)}
          onLetSpeak={onLetSpeak}
          onClose={() => setCastView(null)}
          canEdit={isOwner}
        />
      )}
      {dialogs.authorNote.open && (
        <AuthorNoteDialog
          note={state.authorNote}
          saving={isSteerPending(state, dialogs.authorNote.save.clientIds)}
          error={dialogs.authorNote.save.error}
          onSave={dialogs.authorNote.onSave}
          onClose={dialogs.authorNote.close}
        />
      )}
      {lorebooksOpen && <LorebooksDialog conversationId={conversationId} onClose={() => setLorebooksOpen(false)} />}
      {personaOpen && <PersonaPickerDialog conversation={conversation} characterName={character.name} onClose={() => setPersonaOpen(false)} />}
      {inviteOpen && <InviteDialog conversationId={conversationId} onClose={() => setInviteOpen(false)} />}
      {share && <ShareDialog conversationId={conversationId} upTo={share.upTo} opener={share.opener} onClose={() => setShare(null)} />}
      {peopleOpen && viewerId && (
        <PeoplePanel
          conversation={conversation}
          viewerId={viewerId}
          here={new Set(state.people.map((p) => p.userId))}
          onClose={() => setPeopleOpen(false)}
        />
      )}
      {modelOpen && <ModelPickerDialog conversation={conversation} onClose={() => setModelOpen(false)} />}
      {pinnedOpen && (
        <MemoryPanel
          conversationId={conversationId}
          characterName={(characterId) => cast.find((member) => member.id === characterId)?.name ?? character.name}
          defaultCharacterName={character.name}
          canEdit={isOwner}
          onClose={() => setPinnedOpen(false)}
        />
      )}
      {why && (
        <WhyThisReplyDialog
          conversationId={conversationId}
          messageId={why.messageId}
          messageOf={(id) => {
            const message = state.messages.find((m) => m.id === id);
            if (!message) return undefined;
            const speaker = message.isUser ? (message.authorName ?? "You") : speakerFor(message.characterId).name;
            return { speaker, content: message.content };
          }}
          onJump={(id) => {
            setWhy(null);
            jumpTo(id);
          }}
          onClose={() => setWhy(null)}
          opener={why.opener}
        />
      )}
      {dialogs.memory.open && (
        <MemoryDialog
          characterName={names}
          memory={state.memory}
          summary={state.summary}
          saving={dialogs.memory.save.clientIds.some((clientId) => isSteerPending(state, clientId))}
          error={dialogs.memory.save.error}
          onSave={dialogs.memory.onSave}
          onClosed={focusMessageBox}
          onClose={dialogs.memory.close}
        />
      )}
    </div>
    </ReplyPlayerContext.Provider>
  );
}
