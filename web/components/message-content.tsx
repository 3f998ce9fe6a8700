import { Fragment } from "react";
import { cn } from "../lib/utils.ts";
import { parseSegments } from "../lib/action-segments.ts";
import { useSmoothReveal } from "../lib/smooth-reveal.ts";

/**
 * A message's text with roleplay formatting (SPEC.md §2 "Chat"): `**…**`
 * actions in italic pink, `*…*` emotes in italic, line breaks kept. Text
 * nodes only, never HTML. On the person's own (gradient) bubbles both are
 * plain italic, for contrast. While a reply streams, an action whose
 * closing asterisks have not arrived yet is already styled. Shared by the
 * chat's messages and the character page's greeting and example
 * conversation, so a card's text reads the same in both. A streaming reply's
 * text flows in steadily rather than in jumps (web/lib/smooth-reveal.ts).
 */
export function MessageContent({ content, tone, streaming = false }: { content: string; tone: "character" | "user"; streaming?: boolean }) {
  const shown = useSmoothReveal(content, streaming);
  return (
    <>
      {parseSegments(shown, { streaming }).map((segment, i) => {
        if (segment.kind === "text") return <Fragment key={i}>{segment.text}</Fragment>;
        return (
          <em
            key={i}
            data-segment={segment.kind}
            className={cn(
              "italic",
              tone === "character" && segment.kind === "action" && "text-pink-400",
              tone === "character" && segment.kind === "emote" && "text-muted-foreground",
            )}
          >
            {segment.text}
          </em>
        );
      })}
    </>
  );
}
