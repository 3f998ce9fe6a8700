/**
 * Recording a spoken message in the browser (MediaRecorder) for
 * `POST /api/transcriptions` (DESIGN.md "Voices"). Loaded on the first press
 * of the microphone button, not with the chat page.
 *
 * Errors are thrown as `RecorderError` with words for people: no
 * microphone API, permission refused, no microphone, recording failed.
 */

/** Longest recording, ms (the server takes at most 2 minutes). */
export const MAX_RECORDING_MS = 2 * 60 * 1000;
/** Largest recording, bytes (the server takes at most 10 MB). */
export const MAX_RECORDING_BYTES = 10 * 1024 * 1024;

export class RecorderError extends Error {
  override readonly name = "RecorderError";
}

/** A recording in progress: `stop()` resolves to the audio; `cancel()` drops it. */
export interface Recording {
  stop(): Promise<Blob>;
  cancel(): void;
}

/** What a browser records best and the server's Whisper reads: Opus in WebM or Ogg, else the browser's default (Safari: MP4/AAC). */
function recordingType(): string | undefined {
  const types = ["audio/webm;codecs=opus", "audio/ogg;codecs=opus", "audio/webm", "audio/mp4"];
  return types.find((type) => typeof MediaRecorder.isTypeSupported === "function" && MediaRecorder.isTypeSupported(type));
}

/**
 * Asks for the microphone and starts recording. `onLimit` is called when
 * MAX_RECORDING_MS is reached (the caller stops).
 *
 * @throws RecorderError when the browser cannot record, the person refuses, or there is no microphone.
 */
export async function startRecording(onLimit: () => void): Promise<Recording> {
  if (typeof MediaRecorder === "undefined" || !navigator.mediaDevices?.getUserMedia) {
    throw new RecorderError("This browser cannot record audio. Type your message instead.");
  }
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ audio: true });
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === "NotAllowedError" || name === "SecurityError") {
      throw new RecorderError("Microphone access was refused. Allow it in your browser's site settings to speak a message.");
    }
    if (name === "NotFoundError" || name === "OverconstrainedError") throw new RecorderError("No microphone was found.");
    throw new RecorderError("The microphone could not be started.");
  }
  const mimeType = recordingType();
  const recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
  const chunks: Blob[] = [];
  recorder.addEventListener("dataavailable", (event) => {
    if (event.data.size > 0) chunks.push(event.data);
  });
  const release = () => stream.getTracks().forEach((track) => track.stop());
  const limit = setTimeout(onLimit, MAX_RECORDING_MS);
  recorder.start(1000);
  return {
    stop: () =>
      new Promise<Blob>((resolve, reject) => {
        clearTimeout(limit);
        recorder.addEventListener("stop", () => {
          release();
          resolve(new Blob(chunks, { type: (recorder.mimeType || mimeType || "audio/webm").split(";")[0] }));
        });
        recorder.addEventListener("error", () => {
          release();
          reject(new RecorderError("The recording failed."));
        });
        if (recorder.state === "inactive") {
          release();
          resolve(new Blob(chunks, { type: mimeType ?? "audio/webm" }));
        } else recorder.stop();
      }),
    cancel: () => {
      clearTimeout(limit);
      if (recorder.state !== "inactive") recorder.stop();
      release();
    },
  };
}

/**
 * The words of a recording (`POST /api/transcriptions`).
 *
 * @throws RecorderError with the server's words (or a general message) when it refuses.
 */
export async function transcribe(audio: Blob): Promise<string> {
  if (audio.size === 0) throw new RecorderError("Nothing was recorded.");
  if (audio.size > MAX_RECORDING_BYTES) throw new RecorderError("The recording is too large (at most 10 MB). Nothing was sent.");
  const res = await fetch("/api/transcriptions", {
    method: "POST",
    headers: { "Content-Type": audio.type || "audio/webm" },
    body: audio,
    credentials: "include",
  });
  const body = (await res.json().catch(() => null)) as { text?: string; error?: string } | null;
  if (!res.ok || typeof body?.text !== "string") throw new RecorderError(body?.error ?? "The recording could not be turned into text.");
  return body.text;
}
