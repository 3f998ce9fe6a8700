/**
 * The chat's picture actions over the socket (DESIGN.md "Pictures"):
 * "Imagine" (its dialog's open state and the `imagine` frame), draw a
 * picture again (`imagine` with its `imageId`), choose one of its versions
 * (`swipe`), cancel one being drawn (`cancel_image`) and delete one
 * (`delete_message`). Nothing changes on the page until the room answers:
 * the placeholder comes with `image_started`, the picture with
 * `image_ready` / `message_updated`.
 */
import { type RefObject, useState } from "react";
import type { SendFrame } from "./use-chat-socket.ts";
import { newClientId } from "../lib/chat-socket.ts";
import type { ChatItem } from "../lib/chat-state.ts";

interface PictureActionsOptions {
  conversationId: string;
  /** The socket's `send`: false when the socket is down. */
  send: SendFrame;
  /** The log's "follow new messages" flag: a new picture brings the log to the bottom. */
  stickToBottom: RefObject<boolean>;
  /** Says the socket is down (a toast); called whenever a frame could not be sent. */
  notConnected: () => void;
}

/** The Imagine dialog's state and the handlers the message list and the dialog take. */
export function usePictureActions({ conversationId, send, stickToBottom, notConnected }: PictureActionsOptions) {
  const [imagineOpen, setImagineOpen] = useState(false);
  /** `imagine` (DESIGN.md "Pictures"): the placeholder comes with `image_started`; false, with a toast, when the socket is down. */
  const onImagine = (prompt: string | undefined): boolean => {
    if (!send({ type: "imagine", conversationId, clientId: newClientId(), ...(prompt ? { prompt } : {}) })) {
      notConnected();
      return false;
    }
    stickToBottom.current = true;
    return true;
  };
  const onDeleteImage = (item: ChatItem) => {
    if (!send({ type: "delete_message", conversationId, messageId: item.id, clientId: newClientId() })) notConnected();
  };
  const onCancelImage = (requestId: string) => {
    if (!send({ type: "cancel_image", conversationId, requestId })) notConnected();
  };
  const onRedrawImage = (item: ChatItem) => {
    if (!send({ type: "imagine", conversationId, clientId: newClientId(), imageId: item.id })) notConnected();
  };
  // No optimistic change: the picture shown comes with `message_updated`.
  const onChooseImageVersion = (item: ChatItem, index: number) => {
    if (!send({ type: "swipe", conversationId, messageId: item.id, index })) notConnected();
  };
  return { imagineOpen, setImagineOpen, onImagine, onDeleteImage, onCancelImage, onRedrawImage, onChooseImageVersion };
}
