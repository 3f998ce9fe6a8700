/**
 * A cast's avatars stacked, each over the one before (a group chat's header
 * and its row in My Chats); one character is its avatar alone. At most
 * `max` are drawn, then "+N". Decorative: the names are always beside it.
 */
import { Avatar } from "../../../components/ui/avatar.tsx";
import { cn } from "../../../lib/utils.ts";
import { characterInitial } from "../lib/chat-character.ts";

interface CastAvatarsProps {
  cast: readonly { id: number; name: string; avatarUrl: string | null }[];
  /** The size of one avatar (Tailwind classes, e.g. "size-10"). */
  className?: string;
  fallbackClassName?: string;
  /** Most avatars drawn before "+N". */
  max?: number;
}

export function CastAvatars({ cast, className = "size-10", fallbackClassName, max = 3 }: CastAvatarsProps) {
  const shown = cast.slice(0, max);
  const more = cast.length - shown.length;
  return (
    <span aria-hidden="true" className="flex shrink-0 items-center">
      {shown.map((member, index) => (
        <Avatar
          key={member.id}
          src={member.avatarUrl}
          fallback={characterInitial(member.name)}
          className={cn(className, "ring-2 ring-card", index > 0 && (cast.length > 1 ? "-ml-3" : ""))}
          fallbackClassName={fallbackClassName}
        />
      ))}
      {more > 0 && (
        <span className={cn(className, "-ml-3 inline-flex items-center justify-center rounded-full bg-surface text-xs font-semibold text-muted-foreground ring-2 ring-card")}>
          +{more}
        </span>
      )}
    </span>
  );
}
