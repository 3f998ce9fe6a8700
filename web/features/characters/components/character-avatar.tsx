import { useState } from "react";
import { cn } from "../../../lib/utils.ts";
import { avatarGradient, avatarInitial } from "../lib/avatar-fallback.ts";

interface CharacterAvatarProps {
  id: number;
  name: string;
  avatarUrl: string | null;
  className?: string;
  /** Size of the fallback initial. */
  initialClassName?: string;
  /** Load eagerly (above the fold) instead of lazily. */
  priority?: boolean;
}

/**
 * The character's picture, cover-fitted into its box; when there is none or it
 * fails to load, a gradient derived from the character with its initial.
 */
export function CharacterAvatar({ id, name, avatarUrl, className, initialClassName, priority }: CharacterAvatarProps) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const showImage = avatarUrl !== null && avatarUrl !== "" && failedUrl !== avatarUrl;

  if (showImage) {
    return (
      <img
        src={avatarUrl}
        alt={`Avatar of ${name}`}
        loading={priority ? "eager" : "lazy"}
        decoding="async"
        onError={() => setFailedUrl(avatarUrl)}
        className={cn("size-full object-cover", className)}
      />
    );
  }
  return (
    <div
      role="img"
      aria-label={`Avatar of ${name}`}
      style={{ backgroundImage: avatarGradient(id, name) }}
      className={cn("flex size-full items-center justify-center select-none", className)}
    >
      <span
        aria-hidden="true"
        className={cn("text-5xl font-bold text-white/95 [text-shadow:0_2px_12px_rgb(0_0_0/0.35)]", initialClassName)}
      >
        {avatarInitial(name)}
      </span>
    </div>
  );
}
