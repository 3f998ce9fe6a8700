/**
 * The chat page's reply player (lib/reply-player.ts) and its state, and the
 * "Voice mode" setting: when on, each new reply is read aloud as it
 * finishes. The setting is remembered in this browser (localStorage).
 */
import { createContext, useContext, useEffect, useState, useSyncExternalStore } from "react";
import { toast } from "../../../components/ui/use-toast.ts";
import { useStoredFlag } from "../../../lib/use-stored-flag.ts";
import { ReplyPlayer, type ReplyPlayback } from "../lib/reply-player.ts";

const VOICE_MODE_KEY = "fabled:voice-mode";

/** One player for the page, stopped when the page goes. */
export function usePagePlayer(): ReplyPlayer {
  const [player] = useState(() => new ReplyPlayer());
  useEffect(() => {
    player.onError = (message) => toast({ title: "Could not read the reply", description: message, variant: "destructive" });
    player.onNotice = (message) => toast({ title: "Read aloud", description: message });
    return () => player.stop();
  }, [player]);
  return player;
}

/** Outside a chat page (no player): nothing ever plays. */
const NO_PLAYER = { subscribe: () => () => {}, snapshot: (): ReplyPlayback => null };

export const ReplyPlayerContext = createContext<{ player: ReplyPlayer; conversationId: string } | null>(null);

/** What the play button of `messageId` shows, and its actions; null outside a chat page. */
export function useReplyPlayback(messageId: string): {
  phase: "loading" | "playing" | "stopped";
  play: () => void;
  stop: () => void;
} | null {
  const context = useContext(ReplyPlayerContext);
  const store = context?.player ?? NO_PLAYER;
  const state: ReplyPlayback = useSyncExternalStore(store.subscribe, store.snapshot, () => null);
  if (!context) return null;
  return {
    phase: state?.messageId === messageId ? state.phase : "stopped",
    play: () => void context.player.play(context.conversationId, messageId),
    stop: () => context.player.stop(),
  };
}

/** The Voice mode setting, remembered in this browser. */
export function useVoiceMode(): [boolean, (on: boolean) => void] {
  return useStoredFlag(VOICE_MODE_KEY);
}
