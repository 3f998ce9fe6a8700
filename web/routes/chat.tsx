/**
 * `/chat/:conversationId` — a conversation with a character (SPEC.md §2
 * "Chat"): the conversation, which embeds its character (also an inactive
 * one, DESIGN.md "Inactive characters"), and its messages, read afresh on
 * every entry. A missing conversation (or someone else's) shows
 * "Conversation not found"; a visitor goes through the Unauthorized flow.
 */
import { useEffect } from "react";
import { useParams } from "react-router";
import { isUnauthorizedError } from "../lib/api-client.ts";
import { notifyUnauthorized } from "../lib/unauthorized.ts";
import { useConversation } from "../features/chat/api/get-conversation.ts";
import { useConversationMessages } from "../features/chat/api/get-conversation-messages.ts";
import { ChatRoom } from "../features/chat/components/chat-room.tsx";
import { ChatSkeleton } from "../features/chat/components/chat-skeleton.tsx";
import { ConversationNotFound } from "../features/chat/components/conversation-not-found.tsx";

export function ChatPage() {
  const { conversationId = "" } = useParams();
  // A new conversation (the menu) is a new page: nothing carries over.
  return <ChatScreen key={conversationId} conversationId={conversationId} />;
}

function ChatScreen({ conversationId }: { conversationId: string }) {
  const conversation = useConversation(conversationId);
  const messages = useConversationMessages(conversationId);

  const unauthorized = isUnauthorizedError(conversation.error) || isUnauthorizedError(messages.error);
  useEffect(() => {
    if (unauthorized) notifyUnauthorized("view this conversation");
  }, [unauthorized]);

  if (unauthorized) return <ChatSkeleton />;
  if (conversation.isError) return <ConversationNotFound />;
  if (conversation.isPending) return <ChatSkeleton />;

  return <ChatRoom conversation={conversation.data} character={conversation.data.character} initialMessages={messages.data} />;
}
