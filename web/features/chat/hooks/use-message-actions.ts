/**
 * What a message's menu does in a chat (message-actions.tsx): edit, copy,
 * branch (then opens the new chat), delete or rewind (through the confirm
 * dialog), hide from context, report (its dialog is `reportDialog`, to
 * render), and for the owner of a live chat pin, "Why this reply?" and
 * "Share up to here". Failures are told in toasts; none throws.
 */
import type { ReactNode, RefObject } from "react";
import { useNavigate } from "react-router";
import { useReportDialog } from "../../../components/report-dialog.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { isUnauthorizedError, serverErrorText } from "../../../lib/api-client.ts";
import { copyText } from "../../../lib/clipboard.ts";
import { notifyUnauthorized } from "../../../lib/unauthorized.ts";
import { useCreateMemory } from "../../memory/api/memories.ts";
import { useBranchConversation } from "../api/branch-conversation.ts";
import type { DeleteRequest } from "../components/delete-messages-dialog.tsx";
import type { MessageActionHandlers } from "../components/message-actions.tsx";
import type { ShareEnd } from "../components/share-dialog.tsx";
import { newClientId } from "../lib/chat-socket.ts";
import { type ChatItem, type ChatState, messagesAfter, type SteeringFrame } from "../lib/chat-state.ts";

export interface MessageActionsOptions {
  conversationId: string;
  /** The viewer owns the chat and its socket is not gone: pin, Why and Share are offered. */
  ownerLive: boolean;
  stateRef: RefObject<ChatState>;
  /** Sends a steering frame; false when the socket is down (chat-room.tsx `steer`). */
  steer: (frame: SteeringFrame) => boolean;
  /** The name a reply is reported and shared under. */
  speakerName: (characterId: number | undefined) => string;
  setEditingId: (id: string | null) => void;
  setDeleteRequest: (request: DeleteRequest) => void;
  setWhy: (why: { messageId: string; opener: HTMLElement | null }) => void;
  setShare: (share: { upTo: ShareEnd; opener: HTMLElement | null }) => void;
}

export function useMessageActions({
  conversationId,
  ownerLive,
  stateRef,
  steer,
  speakerName,
  setEditingId,
  setDeleteRequest,
  setWhy,
  setShare,
}: MessageActionsOptions): { actions: MessageActionHandlers; reportDialog: ReactNode } {
  const navigate = useNavigate();
  const branch = useBranchConversation(conversationId);
  const pin = useCreateMemory(conversationId);
  const { openReport, reportDialog } = useReportDialog();
  const actions: MessageActionHandlers = {
    onEdit: (item) => setEditingId(item.id),
    onCopy: (item) =>
      void copyText(item.content).then((copied) =>
        copied
          ? toast({ title: "Copied", description: "The message is on your clipboard." })
          : toast({ title: "Error", description: "Failed to copy the message.", variant: "destructive" }),
      ),
    onBranch: (item) => {
      if (branch.isPending) return;
      branch.mutate(item.id, {
        onSuccess: (fresh) => {
          navigate(`/chat/${fresh.id}`);
          toast({ title: "Branched", description: "A new chat starts from this message." });
        },
        onError: (error) => {
          if (isUnauthorizedError(error)) notifyUnauthorized("view this conversation");
          else toast({ title: "Error", description: serverErrorText(error) ?? "Failed to branch the chat. Please try again.", variant: "destructive" });
        },
      });
    },
    onDelete: (item) => setDeleteRequest({ kind: "delete", messageId: item.id, after: messagesAfter(stateRef.current, item.id) }),
    onRewind: (item) => setDeleteRequest({ kind: "rewind", messageId: item.id, after: messagesAfter(stateRef.current, item.id) }),
    onHide: (item, hidden) => void steer({ type: "hide_message", messageId: item.id, hidden, clientId: newClientId() }),
    onReport: (item, opener) =>
      openReport(
        {
          target: { targetType: "message", targetId: item.id, conversationId },
          ...(item.kind === "image"
            ? { subject: "this picture", title: "Report picture" }
            : { subject: `this reply from ${speakerName(item.characterId)}` }),
        },
        opener,
      ),
    ...(ownerLive
      ? {
          onPin: (item: ChatItem) =>
            pin.mutate(
              { messageId: item.id },
              {
                onSuccess: () => toast({ title: "Pinned", description: "Every reply will remember it. See it in Pinned memories." }),
                onError: (error) => {
                  if (isUnauthorizedError(error)) notifyUnauthorized("view this conversation");
                  else toast({ title: "Error", description: serverErrorText(error) ?? "Failed to pin the message. Please try again.", variant: "destructive" });
                },
              },
            ),
          onWhy: (item: ChatItem, opener: HTMLElement | null) => setWhy({ messageId: item.id, opener }),
          onShareUpTo: (item: ChatItem, opener: HTMLElement | null) =>
            setShare({
              upTo: {
                messageId: item.id,
                speaker: item.isUser ? (item.authorName ?? "You") : speakerName(item.characterId),
                content: item.kind === "image" ? "A picture" : item.content,
              },
              opener,
            }),
        }
      : {}),
  };
  return { actions, reportDialog };
}
