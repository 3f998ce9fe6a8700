/**
 * The memory dialog's and the author's note dialog's saves over the socket
 * (docs/decisions/0007-steering-a-chat.md): each save sends its frames with
 * clientIds of its own, shows them as saving until the room answers
 * (`memory_updated`/`summary_updated`, `author_note_updated`), then closes
 * the dialog with a toast; an `error` frame naming one of them is shown in
 * the dialog, which stays open. `onFrame` is called with every frame of the
 * chat's socket (chat-room.tsx); the clientIds are kept in refs too, since
 * the frame handler may run twice before a render.
 */
import { useRef, useState } from "react";
import type { AuthorNote } from "../../../../schema/chat.ts";
import type { ServerFrame } from "../../../../schema/chat-frames.ts";
import { toast } from "../../../components/ui/use-toast.ts";
import { newClientId } from "../lib/chat-socket.ts";
import type { SteeringFrame } from "../lib/chat-state.ts";

/** A dialog's save: the clientIds on their way, and why the last save was refused. */
interface SaveState<T> {
  clientIds: T;
  error: string | null;
}

/**
 * `steer` sends a steering frame (false when the socket is down); `names`
 * is who keeps the memory, for its toast.
 */
export function useSteerDialogs({ steer, names }: { steer: (frame: SteeringFrame) => boolean; names: string }) {
  const [memoryOpen, setMemoryOpen] = useState(false);
  const [memorySave, setMemorySave] = useState<SaveState<string[]>>({ clientIds: [], error: null });
  const memoryClientIds = useRef<string[]>([]);
  const [authorNoteOpen, setAuthorNoteOpen] = useState(false);
  const [authorNoteSave, setAuthorNoteSave] = useState<SaveState<string | null>>({ clientIds: null, error: null });
  const authorNoteClientId = useRef<string | null>(null);

  const onFrame = (frame: ServerFrame) => {
    const ours = "clientId" in frame && typeof frame.clientId === "string" && memoryClientIds.current.includes(frame.clientId);
    if (ours && (frame.type === "memory_updated" || frame.type === "summary_updated")) {
      memoryClientIds.current = memoryClientIds.current.filter((id) => id !== frame.clientId);
      if (memoryClientIds.current.length === 0) {
        setMemorySave({ clientIds: [], error: null });
        setMemoryOpen(false);
        toast({ title: "Memory saved", description: `${names} will keep it in mind from the next reply on.` });
      }
    }
    if (ours && frame.type === "error") {
      memoryClientIds.current = [];
      setMemorySave({ clientIds: [], error: frame.message });
    }
    if (frame.type === "author_note_updated" && frame.clientId !== undefined && frame.clientId === authorNoteClientId.current) {
      authorNoteClientId.current = null;
      setAuthorNoteSave({ clientIds: null, error: null });
      setAuthorNoteOpen(false);
      toast({ title: "Author's note saved", description: "It steers the story from the next reply on." });
    }
    if (frame.type === "error" && frame.clientId !== undefined && frame.clientId === authorNoteClientId.current) {
      authorNoteClientId.current = null;
      setAuthorNoteSave({ clientIds: null, error: frame.message });
    }
  };

  const memory = {
    open: memoryOpen,
    save: memorySave,
    show: () => {
      setMemorySave({ clientIds: [], error: null });
      setMemoryOpen(true);
    },
    /** Sends the memory and/or the summary; false (nothing marked as saving) when the socket is down. */
    onSave: ({ memory, summary }: { memory?: string; summary?: string }): boolean => {
      const sent: string[] = [];
      if (memory !== undefined) {
        const clientId = newClientId();
        if (!steer({ type: "set_memory", memory, clientId })) return false;
        sent.push(clientId);
      }
      if (summary !== undefined) {
        const clientId = newClientId();
        if (!steer({ type: "set_summary", summary, clientId })) return false;
        sent.push(clientId);
      }
      memoryClientIds.current = sent;
      setMemorySave({ clientIds: sent, error: null });
      return true;
    },
    close: () => {
      memoryClientIds.current = [];
      setMemoryOpen(false);
    },
  };

  const authorNote = {
    open: authorNoteOpen,
    save: authorNoteSave,
    show: () => {
      setAuthorNoteSave({ clientIds: null, error: null });
      setAuthorNoteOpen(true);
    },
    /** Sends the note; false when the socket is down. */
    onSave: (note: AuthorNote): boolean => {
      const clientId = newClientId();
      if (!steer({ type: "set_author_note", ...note, clientId })) return false;
      authorNoteClientId.current = clientId;
      setAuthorNoteSave({ clientIds: clientId, error: null });
      return true;
    },
    close: () => {
      authorNoteClientId.current = null;
      setAuthorNoteOpen(false);
    },
  };

  return { onFrame, memory, authorNote };
}
