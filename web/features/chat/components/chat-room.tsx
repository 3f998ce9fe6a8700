/**
 * A live conversation (SPEC.md §2 "Chat", §4 "Chat send", "Real-time
 * connection", "New conversation from chat menu"): the header, the
 * messages, the input and the footer line, driven by the socket's frames
 * through `chatReducer` (lib/chat-state.ts).
 */
import { LoaderCircle, WifiOff } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import type { ChatMessage, Conversation } from "../../../../schema/chat.ts";
import { Button } from "../../../components/ui/button.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { isUnauthorizedError } from "../../../lib/api-client.ts";
import { notifyUnauthorized } from "../../../lib/unauthorized.ts";
import { useRateMessage } from "../api/rate-message.ts";
import { useStartNewConversation } from "../api/start-new-conversation.ts";
import { type ConnectionStatus, useChatSocket } from "../hooks/use-chat-socket.ts";
import type { ChatCharacter } from "../lib/chat-character.ts";
import { newClientId } from "../lib/chat-socket.ts";
import {
  type ChatAction,
  type ChatItem,
  chatFooterText,
  chatReducer,
  conversationMessageCount,
  initialChatState,
  isBusy,
  unsentMessages,
} from "../lib/chat-state.ts";
import { ChatComposer } from "./chat-composer.tsx";
import { ChatHeader } from "./chat-header.tsx";
import { MessageList } from "./message-list.tsx";

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

  useEffect(() => {
    if (initialMessages) dispatch({ type: "loaded", messages: initialMessages });
  }, [initialMessages, dispatch]);

  const socket = useChatSocket({
    conversationId,
    enabled: true,
    onFrame: (frame, send) => {
      dispatch({ type: "frame", frame });
      if (frame.type !== "history_sync") return;
      // Sent before a reconnect and not in the server's history: send again
      // (same clientId, so the server stores each once).
      for (const item of unsentMessages(stateRef.current)) {
        send({ type: "chat_message", conversationId, content: item.content, isUser: true, clientId: item.clientId! });
      }
    },
  });

  const onSend = (content: string): boolean => {
    const clientId = newClientId();
    // Disconnected: dropped with a console warning (SPEC.md §4); the text stays in the input.
    if (!socket.send({ type: "chat_message", conversationId, content, isUser: true, clientId })) return false;
    stickToBottom.current = true;
    dispatch({ type: "send", clientId, content, createdAt: new Date().toISOString() });
    return true;
  };

  const onRetry = (item: ChatItem) => {
    if (!item.clientId || isBusy(stateRef.current)) return;
    if (!socket.send({ type: "chat_message", conversationId, content: item.content, isUser: true, clientId: item.clientId })) return;
    stickToBottom.current = true;
    dispatch({ type: "retry", clientId: item.clientId });
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

  const onStop = () => {
    socket.send({ type: "stop", conversationId });
  };

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
  const onNewConversation = () =>
    startNew.mutate(conversation.characterId, {
      onSuccess: (fresh) => {
        navigate(`/chat/${fresh.id}`);
        toast({ title: "New conversation started", description: "You're now in a fresh conversation. Previous history is preserved." });
      },
      onError: (error) => {
        if (isUnauthorizedError(error)) notifyUnauthorized("start a chat");
        else toast({ title: "Error", description: "Failed to start a new conversation. Please try again.", variant: "destructive" });
      },
    });

  const chatModel = state.chatModel ?? conversation.chatModel;
  const loading = !state.synced && initialMessages === undefined;

  return (
    <div className="mx-auto flex h-[calc(100dvh-4rem)] w-full max-w-4xl flex-col md:px-4 md:py-4">
      <title>{`Chat with ${character.name} — Fabled`}</title>
      <section
        aria-label={`Chat with ${character.name}`}
        className="flex min-h-0 flex-1 flex-col overflow-hidden bg-card md:rounded-2xl md:border md:border-border"
      >
        <ChatHeader
          character={character}
          onNewConversation={onNewConversation}
          startingNew={startNew.isPending}
          offlineModel={chatModel === "offline"}
        />
        <MessageList
          state={state}
          character={character}
          loading={loading}
          stickToBottom={stickToBottom}
          onRate={onRate}
          onRegenerate={onRegenerate}
          onSwipe={onSwipe}
          onRetry={onRetry}
          onDismissError={() => dispatch({ type: "dismissError" })}
        />
        <div className="border-t border-border bg-card px-3 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] sm:px-4">
          <div className="mx-auto max-w-3xl">
            <ConnectionNotice status={socket.status} onReconnect={socket.reconnect} />
            <ChatComposer
              characterName={character.name}
              busy={isBusy(state)}
              streaming={state.streamingId !== null}
              onSend={onSend}
              onStop={onStop}
            />
            <p className="mt-2 text-center text-xs text-muted-foreground">{chatFooterText(conversationMessageCount(state))}</p>
          </div>
        </div>
      </section>
    </div>
  );
}

/** Says when the socket is down: reconnecting on its own, or given up (with a button to try again). */
function ConnectionNotice({ status, onReconnect }: { status: ConnectionStatus; onReconnect: () => void }) {
  return (
    <div role="status" className="empty:hidden">
      {status === "reconnecting" && (
        <p className="mb-2 flex items-center gap-2 text-xs text-yellow-300">
          <LoaderCircle aria-hidden="true" className="size-3.5 animate-spin" /> Connection lost. Reconnecting…
        </p>
      )}
      {status === "closed" && (
        <p className="mb-2 flex items-center gap-2 text-xs text-red-300">
          <WifiOff aria-hidden="true" className="size-3.5" /> Disconnected from the chat.
          <Button variant="link" size="sm" onClick={onReconnect} className="h-auto px-0 text-xs">
            Reconnect
          </Button>
        </p>
      )}
    </div>
  );
}
