/**
 * `/chat/:conversationId` — a conversation with a character (SPEC.md §2
 * "Chat"): the conversation, then its character; the messages are read
 * afresh on every entry. A missing conversation (or someone else's) shows
 * "Conversation not found"; a visitor goes through the Unauthorized flow.
 */
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useParams } from "react-router";
import { isUnauthorizedError } from "../lib/api-client.ts";
import { notifyUnauthorized } from "../lib/unauthorized.ts";
import { characterQueryOptions } from "../features/characters/api/get-character.ts";
import { useConversation } from "../features/chat/api/get-conversation.ts";
import { useConversationMessages } from "../features/chat/api/get-conversation-messages.ts";
import type { ChatCharacter } from "../features/chat/lib/chat-character.ts";
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
  const characterId = conversation.data?.characterId;
  const character = useQuery({
    ...characterQueryOptions(String(characterId ?? "")),
    enabled: characterId !== undefined,
  });

  const unauthorized = isUnauthorizedError(conversation.error) || isUnauthorizedError(messages.error);
  useEffect(() => {
    if (unauthorized) notifyUnauthorized("view this conversation");
  }, [unauthorized]);

  if (unauthorized) return <ChatSkeleton />;
  if (conversation.isError) return <ConversationNotFound />;
  if (conversation.isPending || character.isPending) return <ChatSkeleton />;

  // An inactive character is hidden from everyone but its creator, yet its
  // chats keep working (DESIGN.md "Inactive characters"): a plain header then.
  const header: ChatCharacter = character.data
    ? { id: character.data.id, name: character.data.name, avatarUrl: character.data.avatarUrl, creator: character.data.creator }
    : { id: conversation.data.characterId, name: "Character", avatarUrl: null, creator: null };

  return <ChatRoom conversation={conversation.data} character={header} initialMessages={messages.data} />;
}
