import { useState } from "react";
import { cn } from "../../lib/utils.ts";

interface AvatarProps {
  /** Picture URL; the fallback shows when it is empty or fails to load. */
  src: string | null | undefined;
  /** Short text shown without a picture: an initial or two. */
  fallback: string;
  /** Spoken name of the picture; omit when the person's name is next to it. */
  alt?: string;
  className?: string;
  fallbackClassName?: string;
}

/** A round picture of a person, or their initials on the brand gradient. */
export function Avatar({ src, fallback, alt, className, fallbackClassName }: AvatarProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const showImage = Boolean(src) && failedSrc !== src;
  return (
    <span className={cn("relative inline-flex size-9 shrink-0 overflow-hidden rounded-full", className)}>
      {showImage ? (
        <img
          src={src!}
          alt={alt ?? ""}
          referrerPolicy="no-referrer"
          decoding="async"
          onError={() => setFailedSrc(src!)}
          className="size-full object-cover"
        />
      ) : (
        <span
          role={alt ? "img" : undefined}
          aria-label={alt}
          aria-hidden={alt ? undefined : true}
          className={cn(
            "flex size-full items-center justify-center bg-gradient-to-br from-primary-strong to-accent-pink text-sm font-semibold text-white select-none",
            fallbackClassName,
          )}
        >
          {fallback}
        </span>
      )}
    </span>
  );
}
