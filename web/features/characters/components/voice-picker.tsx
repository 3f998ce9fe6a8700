/**
 * The character's voice (DESIGN.md "Voices"): one of the site's voices, or
 * the default, and a "Preview" button that plays a sample sentence in the
 * chosen voice (`GET /api/voices/{id}/preview`).
 */
import { Loader2, Square, Volume2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { FormField } from "../../../components/ui/form-field.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { useVoices } from "../../../lib/voices-query.ts";

interface VoicePickerProps {
  /** A voice id; "" for the default. */
  value: string;
  onChange: (voice: string) => void;
  error?: string;
}

const SELECT =
  "h-10 w-full min-w-0 rounded-lg border border-input bg-surface px-3 text-sm text-foreground focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/60 aria-[invalid=true]:border-red-400";

export function VoicePicker({ value, onChange, error }: VoicePickerProps) {
  const { data } = useVoices();
  const voices = data?.voices ?? [];
  const defaultVoice = voices[0];
  const chosen = voices.find((voice) => voice.id === value) ?? defaultVoice;
  const [phase, setPhase] = useState<"stopped" | "loading" | "playing">("stopped");
  const audio = useRef<HTMLAudioElement | null>(null);

  const stop = () => {
    audio.current?.pause();
    audio.current = null;
    setPhase("stopped");
  };
  useEffect(() => () => audio.current?.pause(), []);

  const preview = async () => {
    if (!chosen) return;
    stop();
    const player = new Audio(`/api/voices/${encodeURIComponent(chosen.id)}/preview`);
    audio.current = player;
    setPhase("loading");
    player.addEventListener("playing", () => audio.current === player && setPhase("playing"));
    player.addEventListener("ended", () => audio.current === player && stop());
    try {
      await player.play();
    } catch {
      if (audio.current !== player) return;
      stop();
      toast({ title: "Could not play the preview", description: "Please try again.", variant: "destructive" });
    }
  };

  return (
    <FormField
      id="character-voice"
      label="Voice"
      hint="How the character sounds when a reply is read aloud in the chat."
      error={error}
    >
      {(describedBy) => (
        <div className="flex flex-wrap items-center gap-2">
          <select
            id="character-voice"
            name="voice"
            value={value}
            aria-describedby={describedBy}
            aria-invalid={error ? true : undefined}
            onChange={(event) => {
              stop();
              onChange(event.target.value);
            }}
            className={`${SELECT} sm:w-auto sm:flex-1`}
          >
            <option value="">Default{defaultVoice ? ` (${defaultVoice.name})` : ""}</option>
            {voices.map((voice) => (
              <option key={voice.id} value={voice.id}>
                {voice.name}
              </option>
            ))}
            {value && !voices.some((voice) => voice.id === value) && <option value={value}>{value} (not offered here)</option>}
          </select>
          <Button
            type="button"
            variant="secondary"
            disabled={!chosen}
            data-playback={phase}
            onClick={phase === "stopped" ? preview : stop}
            aria-label={phase === "stopped" ? `Preview the voice ${chosen?.name ?? ""}`.trim() : "Stop the preview"}
            className="h-10 gap-2"
          >
            {phase === "loading" ? (
              <Loader2 aria-hidden="true" className="animate-spin" />
            ) : phase === "playing" ? (
              <Square aria-hidden="true" className="fill-current" />
            ) : (
              <Volume2 aria-hidden="true" />
            )}
            {phase === "stopped" ? "Preview" : "Stop"}
          </Button>
        </div>
      )}
    </FormField>
  );
}
