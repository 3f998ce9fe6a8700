/**
 * The visual-novel layout of a chat (issue 37, as RisuAI and SillyTavern's
 * "Visual Novel Mode" show it): above the composer, the characters who spoke
 * last stand large, each with the face of their own newest reply
 * (lib/expressions.ts stageFigures); the latest speaker in front, named
 * under the stage. The faces change with each reply; nothing here is
 * announced (the replies themselves are).
 */
import type { StageFigure } from "../lib/expressions.ts";

export function VisualNovelStage({ figures }: { figures: StageFigure[] }) {
  if (figures.length === 0) return null;
  const front = figures.at(-1)!;
  return (
    <figure aria-label="Scene" className="relative flex h-[26dvh] max-h-72 min-h-32 shrink-0 flex-col border-t border-border bg-black/30">
      <div className="flex min-h-0 flex-1 items-end justify-center gap-2 px-4 pt-2">
        {figures.map((figure) => {
          const isFront = figure === front;
          return (
            <img
              key={figure.speaker.id ?? figure.speaker.name}
              src={figure.face.url}
              alt={`${figure.speaker.name}, ${figure.face.name}`}
              data-expression={figure.face.name}
              className={`h-full max-w-[45%] object-contain object-bottom transition-opacity duration-300 motion-reduce:transition-none ${isFront ? "" : "h-[80%] opacity-60"}`}
            />
          );
        })}
      </div>
      <figcaption className="px-4 py-1 text-center text-xs font-medium text-foreground">{front.speaker.name}</figcaption>
    </figure>
  );
}
