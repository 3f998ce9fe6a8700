import { Avatar } from "../../../components/ui/avatar.tsx";
import { characterInitial } from "../lib/chat-character.ts";

/**
 * Three bouncing dots in a character bubble while a reply is awaited
 * (SPEC.md §2 "Chat"), beside the speaker's avatar; `speaker` is null in a
 * group chat until the server says who replies (`reply_started`).
 */
export function TypingIndicator({ speaker }: { speaker: { name: string; avatarUrl: string | null } | null }) {
  return (
    <li className="flex items-end gap-2.5" data-testid="typing-indicator">
      <Avatar src={speaker?.avatarUrl} fallback={speaker ? characterInitial(speaker.name) : "…"} className="size-8" />
      <div role="status" className="flex h-10 items-center gap-1.5 rounded-2xl rounded-bl-sm bg-surface px-4">
        <span className="sr-only">{speaker ? `${speaker.name} is typing…` : "A reply is coming…"}</span>
        {[0, 150, 300].map((delay) => (
          <span
            key={delay}
            aria-hidden="true"
            style={{ animationDelay: `${delay}ms` }}
            className="size-2 animate-bounce rounded-full bg-muted-foreground motion-reduce:animate-pulse"
          />
        ))}
      </div>
    </li>
  );
}
