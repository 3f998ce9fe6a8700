/**
 * The chat page's socket as a React hook: a ChatConnection
 * (lib/chat-connection.ts — join on open, reconnect with backoff, close 1000
 * on leaving) for as long as the page shows the conversation.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { ClientFrameInput, ServerFrame } from "../../../../schema/chat-frames.ts";
import { ChatConnection, type ConnectionStatus } from "../lib/chat-connection.ts";
import { chatSocketUrl } from "../lib/chat-socket.ts";

export type { ConnectionStatus };

/** Sends a frame when the socket is open; returns false (with a console warning) otherwise. */
export type SendFrame = (frame: ClientFrameInput) => boolean;

interface ChatSocketOptions {
  conversationId: string;
  /** Connect only when true (once the conversation is known to be the person's). */
  enabled: boolean;
  /** Every valid server frame, in order; `send` may be called from here. */
  onFrame: (frame: ServerFrame, send: SendFrame) => void;
}

export function useChatSocket({ conversationId, enabled, onFrame }: ChatSocketOptions) {
  const [status, setStatus] = useState<ConnectionStatus>("connecting");
  // Why the chat is gone for this person (a GONE_CLOSE_REASONS reason), once it is.
  const [goneReason, setGoneReason] = useState<string | null>(null);
  // Bumped by `reconnect()` to start over after the connection gave up.
  const [generation, setGeneration] = useState(0);
  const connectionRef = useRef<ChatConnection | null>(null);
  const onFrameRef = useRef(onFrame);
  useEffect(() => {
    onFrameRef.current = onFrame;
  });

  const send = useCallback<SendFrame>((frame) => {
    const connection = connectionRef.current;
    if (!connection) {
      console.warn(`chat socket: not connected, "${frame.type}" was not sent`);
      return false;
    }
    return connection.send(frame);
  }, []);

  useEffect(() => {
    if (!enabled) return;
    const connection = new ChatConnection({
      url: chatSocketUrl(window.location, conversationId),
      conversationId,
      onFrame: (frame) => onFrameRef.current(frame, send),
      onStatus: (next, reason) => {
        setStatus(next);
        if (next === "gone") setGoneReason(reason ?? "");
      },
    });
    connectionRef.current = connection;
    connection.start();
    return () => {
      connectionRef.current = null;
      connection.close();
    };
  }, [conversationId, enabled, generation, send]);

  const reconnect = useCallback(() => setGeneration((g) => g + 1), []);
  return { status, goneReason, send, reconnect };
}
