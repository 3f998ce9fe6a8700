/**
 * Reads character replies aloud, one at a time on the page: fetches the
 * reply's audio (`GET /api/conversations/{id}/messages/{messageId}/speech`,
 * DESIGN.md "Voices") and plays it. A small store for
 * `useSyncExternalStore`: which reply is loading or playing.
 *
 * The audio is fetched rather than given to `<audio src>` so that a refusal
 * (429, 503) reaches the page as the JSON error's words.
 */

export type ReplyPlayback = { messageId: string; phase: "loading" | "playing" } | null;

type Listener = () => void;

/** The URL of a reply's audio. */
export const speechUrl = (conversationId: string, messageId: string) =>
  `/api/conversations/${encodeURIComponent(conversationId)}/messages/${encodeURIComponent(messageId)}/speech`;

export class ReplyPlayer {
  private state: ReplyPlayback = null;
  private readonly listeners = new Set<Listener>();
  private audio: HTMLAudioElement | null = null;
  private objectUrl: string | null = null;
  private request: AbortController | null = null;
  /** Told the words of a failure (the page shows a toast). */
  onError: (message: string) => void = () => {};
  /** Told the answer's `Fabled-Notice` (a reply too long to read in full; the page shows a toast). */
  onNotice: (message: string) => void = () => {};

  readonly subscribe = (listener: Listener) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly snapshot = () => this.state;

  private set(state: ReplyPlayback) {
    this.state = state;
    for (const listener of this.listeners) listener();
  }

  /** Stops whatever plays and plays `messageId` of `conversationId`: loading, then playing, then (at its end) nothing. */
  async play(conversationId: string, messageId: string): Promise<void> {
    this.stop();
    const request = new AbortController();
    this.request = request;
    this.set({ messageId, phase: "loading" });
    try {
      const res = await fetch(speechUrl(conversationId, messageId), { credentials: "include", signal: request.signal });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: string } | null;
        throw new Error(body?.error ?? "This reply cannot be read aloud right now.");
      }
      const notice = res.headers.get("Fabled-Notice");
      if (notice) this.onNotice(decodeNotice(notice));
      const blob = await res.blob();
      if (request.signal.aborted) return;
      this.objectUrl = URL.createObjectURL(blob);
      const audio = new Audio(this.objectUrl);
      this.audio = audio;
      audio.addEventListener("ended", () => {
        if (this.audio === audio) this.stop();
      });
      await audio.play();
      if (this.audio === audio) this.set({ messageId, phase: "playing" });
    } catch (error) {
      if (request.signal.aborted) return;
      this.stop();
      this.onError(error instanceof Error && error.name !== "NotAllowedError" ? error.message : "Your browser did not let the reply play. Press play again.");
    }
  }

  /** Stops loading or playing; nothing plays afterwards. */
  stop(): void {
    this.request?.abort();
    this.request = null;
    if (this.audio) {
      this.audio.pause();
      this.audio.removeAttribute("src");
      this.audio = null;
    }
    if (this.objectUrl) URL.revokeObjectURL(this.objectUrl);
    this.objectUrl = null;
    if (this.state) this.set(null);
  }
}

/** A `Fabled-Notice` header's words (URI-encoded by the server; as sent when not). */
function decodeNotice(header: string): string {
  try {
    return decodeURIComponent(header);
  } catch {
    return header;
  }
}
