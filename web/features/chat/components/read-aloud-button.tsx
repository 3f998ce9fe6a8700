/**
 * Play/stop of a character reply read aloud (DESIGN.md "Voices"): a speaker
 * while stopped, a spinner while the audio is made or fetched, a square
 * while it plays. `data-playback` says which (loading | playing | stopped).
 */
import { Loader2, Square, Volume2 } from "lucide-react";
import { Button } from "../../../components/ui/button.tsx";
import { TooltipContent, TooltipGroupItem, TooltipTrigger } from "../../../components/ui/tooltip.tsx";
import { useReplyPlayback } from "../hooks/use-reply-player.ts";

export function ReadAloudButton({ messageId, characterName }: { messageId: string; characterName: string }) {
  const playback = useReplyPlayback(messageId);
  if (!playback) return null;
  const { phase } = playback;
  const label = phase === "stopped" ? `Read ${characterName}'s reply aloud` : phase === "loading" ? "Loading the reply's audio… (stop)" : "Stop reading";
  return (
    <TooltipGroupItem>
      <TooltipTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          aria-label={label}
          aria-pressed={phase !== "stopped"}
          data-playback={phase}
          onClick={phase === "stopped" ? playback.play : playback.stop}
          className="size-8 rounded-md text-muted-foreground hover:text-foreground data-[playback=playing]:text-pink-400 [&_svg]:!size-4"
        >
          {phase === "loading" ? (
            <Loader2 aria-hidden="true" className="animate-spin" />
          ) : phase === "playing" ? (
            <Square aria-hidden="true" className="fill-current" />
          ) : (
            <Volume2 aria-hidden="true" />
          )}
        </Button>
      </TooltipTrigger>
      <TooltipContent>{phase === "stopped" ? "Read aloud" : phase === "loading" ? "Loading…" : "Stop"}</TooltipContent>
    </TooltipGroupItem>
  );
}
