/**
 * The line above the chat's composer saying the socket is down (SPEC.md §4
 * "Real-time connection"; issue 41 for a chat that is gone for good).
 */
import { LoaderCircle, UserX, WifiOff } from "lucide-react";
import { Link } from "react-router";
import { goneText } from "../../../../schema/chat.ts";
import { Button } from "../../../components/ui/button.tsx";
import type { ConnectionStatus } from "../hooks/use-chat-socket.ts";

/**
 * Says when the socket is down: reconnecting on its own, given up (with a
 * button to try again), or gone for good — removed from a shared room or the
 * chat deleted (a way back to My Chats, nothing to retry).
 */
export function ConnectionNotice({ status, goneReason, onReconnect }: { status: ConnectionStatus; goneReason: string | null; onReconnect: () => void }) {
  return (
    <div role="status" className="empty:hidden">
      {status === "gone" && (
        <p className="mb-2 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-red-300">
          <UserX aria-hidden="true" className="size-4" /> {goneText(goneReason ?? "")}
          <Link to="/chats" className="text-violet-200 underline underline-offset-2 hover:text-violet-100">
            Back to My Chats
          </Link>
        </p>
      )}
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
