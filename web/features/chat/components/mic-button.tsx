/**
 * The composer's microphone (DESIGN.md "Voices"): press to record, press
 * again to stop; the words land in the input to edit before sending. Shown
 * only where the site has speech to text; elsewhere `MicUnavailableButton`
 * stands in its place and says why (issue 41). The recorder
 * (lib/recorder.ts) loads on the first press.
 */
import { Loader2, Mic, MicOff, Square } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { IconTooltip } from "../../../components/ui/tooltip.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { cn } from "../../../lib/utils.ts";
import type { Recording } from "../lib/recorder.ts";

type Phase = "idle" | "starting" | "recording" | "transcribing";

export function MicButton({ disabled, onText }: { disabled: boolean; onText: (text: string) => void }) {
  const [phase, setPhase] = useState<Phase>("idle");
  const [seconds, setSeconds] = useState(0);
  const recording = useRef<Recording | null>(null);

  useEffect(() => () => recording.current?.cancel(), []);
  useEffect(() => {
    if (phase !== "recording") return;
    setSeconds(0);
    const started = Date.now();
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 500);
    return () => clearInterval(timer);
  }, [phase]);

  const fail = (error: unknown) => {
    toast({
      title: "Speech to text",
      description: error instanceof Error && error.name === "RecorderError" ? error.message : "Something went wrong. Nothing was sent.",
      variant: "destructive",
    });
  };

  const finish = async () => {
    const current = recording.current;
    if (!current) return;
    recording.current = null;
    setPhase("transcribing");
    try {
      const { transcribe } = await import("../lib/recorder.ts");
      const text = await transcribe(await current.stop());
      if (text) onText(text);
      else toast({ title: "Speech to text", description: "No words were heard. Try again closer to the microphone." });
    } catch (error) {
      fail(error);
    } finally {
      setPhase("idle");
    }
  };

  const start = async () => {
    setPhase("starting");
    try {
      const { startRecording } = await import("../lib/recorder.ts");
      recording.current = await startRecording(() => {
        toast({ title: "Speech to text", description: "Recordings stop at 2 minutes." });
        void finish();
      });
      setPhase("recording");
    } catch (error) {
      setPhase("idle");
      fail(error);
    }
  };

  const label =
    phase === "recording" ? `Stop recording (${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")})` : phase === "transcribing" ? "Turning your recording into text…" : "Record a spoken message";
  return (
    <IconTooltip label={label}>
      <Button
        type="button"
        variant="secondary"
        aria-label={label}
        aria-pressed={phase === "recording"}
        data-phase={phase}
        disabled={(disabled && phase === "idle") || phase === "starting" || phase === "transcribing"}
        onClick={phase === "recording" ? () => void finish() : () => void start()}
        className={cn("size-11 shrink-0 rounded-xl px-0", phase === "recording" && "bg-red-500/20 text-red-300 hover:bg-red-500/30")}
      >
        {phase === "transcribing" || phase === "starting" ? (
          <Loader2 aria-hidden="true" className="animate-spin" />
        ) : phase === "recording" ? (
          <Square aria-hidden="true" className="fill-current" />
        ) : (
          <Mic aria-hidden="true" />
        )}
      </Button>
    </IconTooltip>
  );
}

/** What the composer says where the microphone would be when the site has no speech to text. */
export const SPEECH_INPUT_UNAVAILABLE = "Speech input needs a speech-to-text provider — see the README";

/**
 * Where the microphone would be on a site without speech to text: a muted
 * microphone that says why — in its tooltip on hover or focus, and in a
 * toast when pressed (a phone has no hover). It records nothing.
 */
export function MicUnavailableButton() {
  const whyId = useId();
  return (
    <>
      <span id={whyId} hidden>
        {SPEECH_INPUT_UNAVAILABLE}
      </span>
      <IconTooltip label={SPEECH_INPUT_UNAVAILABLE}>
        <Button
          type="button"
          variant="secondary"
          aria-label="Speech input unavailable"
          aria-describedby={whyId}
          onClick={() => toast({ title: "Speech input", description: SPEECH_INPUT_UNAVAILABLE })}
          className="size-11 shrink-0 rounded-xl px-0 text-muted-foreground"
        >
          <MicOff aria-hidden="true" />
        </Button>
      </IconTooltip>
    </>
  );
}
