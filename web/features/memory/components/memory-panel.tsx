/**
 * The chat's pinned memories (DESIGN.md "Memory"), opened from the chat
 * menu's "Pinned memories": each with its scope ("This chat" or "Every chat
 * with {character}"), Edit and Delete for the owner, and "Add a memory" (a
 * text and its scope). A member of a shared room sees the list read-only.
 * Pins live in D1 and go into every prompt after the memory note, before
 * recalled messages (docs/decisions/0031-memory.md).
 */
import { Pencil, Pin, Trash2 } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { MAX_PINNED_MEMORIES, MAX_PINNED_MEMORY_LENGTH, type MemoryScope, type PinnedMemory } from "../../../../schema/chat.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../../components/ui/dialog.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { Textarea } from "../../../components/ui/textarea.tsx";
import { serverErrorText } from "../../../lib/api-client.ts";
import { cn } from "../../../lib/utils.ts";
import { useCreateMemory, useDeleteMemory, useMemories, useUpdateMemory } from "../api/memories.ts";

interface MemoryPanelProps {
  conversationId: string;
  /** The chat's character names, for "Every chat with {character}". */
  characterName: (characterId: number) => string;
  /** The one-to-one chat's character, or the group's first member: a new memory's character scope. */
  defaultCharacterName: string;
  /** The viewer owns the chat and may write; a member sees the list only. */
  canEdit: boolean;
  onClose: () => void;
}

/** What a memory's scope says to the person. */
export function scopeLabel(scope: MemoryScope, characterName: string): string {
  return scope === "chat" ? "This chat" : `Every chat with ${characterName}`;
}

/** Open while mounted. */
export function MemoryPanel({ conversationId, characterName, defaultCharacterName, canEdit, onClose }: MemoryPanelProps) {
  const memories = useMemories(conversationId);
  const list = memories.data?.memories ?? [];
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90dvh] max-w-lg overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Pinned memories</DialogTitle>
          <DialogDescription>
            Facts the story must never forget: every reply is written with them, however long the chat grows.
          </DialogDescription>
        </DialogHeader>
        {memories.isPending ? (
          <div aria-hidden="true" className="space-y-2">
            <Skeleton className="h-14 w-full rounded-lg" />
            <Skeleton className="h-14 w-full rounded-lg" />
          </div>
        ) : memories.isError ? (
          <p role="alert" className="text-sm text-red-300">
            {serverErrorText(memories.error) ?? "Could not load the memories."}
          </p>
        ) : list.length === 0 ? (
          <p className="rounded-lg border border-dashed border-border px-3 py-4 text-center text-sm text-muted-foreground">
            Nothing pinned yet.{canEdit && " Pin a message from its actions menu, or add a memory below."}
          </p>
        ) : (
          <ul aria-label="Pinned memories" className="space-y-2">
            {list.map((memory) => (
              <MemoryRow key={memory.id} conversationId={conversationId} memory={memory} characterName={characterName(memory.characterId)} canEdit={canEdit} />
            ))}
          </ul>
        )}
        {canEdit && memories.isSuccess && (
          <AddMemory conversationId={conversationId} characterName={defaultCharacterName} full={list.length >= MAX_PINNED_MEMORIES} />
        )}
      </DialogContent>
    </Dialog>
  );
}

function MemoryRow({ conversationId, memory, characterName, canEdit }: { conversationId: string; memory: PinnedMemory; characterName: string; canEdit: boolean }) {
  const [editing, setEditing] = useState(false);
  const update = useUpdateMemory(conversationId);
  const remove = useDeleteMemory(conversationId);
  const error = update.error ?? remove.error;
  if (editing) {
    return (
      <li className="rounded-lg border border-border bg-surface/60 p-3">
        <MemoryForm
          label="Edit memory"
          initial={memory.text}
          submitLabel="Save"
          pending={update.isPending}
          error={update.error ? (serverErrorText(update.error) ?? "Could not save the memory.") : null}
          onCancel={() => {
            update.reset();
            setEditing(false);
          }}
          onSubmit={(text) => update.mutate({ memoryId: memory.id, text }, { onSuccess: () => setEditing(false) })}
        />
      </li>
    );
  }
  return (
    <li className="flex items-start gap-2 rounded-lg border border-border bg-surface/60 p-3">
      <Pin aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-pink-300" />
      <div className="min-w-0 flex-1">
        <p className="text-sm break-words whitespace-pre-wrap">{memory.text}</p>
        <p className="mt-1 text-xs text-muted-foreground">{scopeLabel(memory.scope, characterName)}</p>
        {error && (
          <p role="alert" className="mt-1 text-xs text-red-300">
            {serverErrorText(error) ?? "That did not work. Please try again."}
          </p>
        )}
      </div>
      {canEdit && (
        <div className="flex shrink-0 gap-0.5">
          <Button variant="ghost" size="icon" className="size-8" aria-label="Edit memory" onClick={() => setEditing(true)}>
            <Pencil aria-hidden="true" />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            className="size-8 text-red-300 hover:text-red-200"
            aria-label="Delete memory"
            disabled={remove.isPending}
            onClick={() => remove.mutate(memory.id)}
          >
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      )}
    </li>
  );
}

function AddMemory({ conversationId, characterName, full }: { conversationId: string; characterName: string; full: boolean }) {
  const create = useCreateMemory(conversationId);
  const [scope, setScope] = useState<MemoryScope>("chat");
  const [round, setRound] = useState(0);
  const id = useId();
  if (full) {
    return <p className="text-sm text-muted-foreground">This chat holds {MAX_PINNED_MEMORIES} memories, the most it can; delete one to add another.</p>;
  }
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-2 border-t border-border pt-4">
      <h3 id={`${id}-title`} className="text-sm font-semibold">
        Add a memory
      </h3>
      <MemoryForm
        key={round}
        label="New memory"
        initial=""
        submitLabel="Add"
        pending={create.isPending}
        error={create.error ? (serverErrorText(create.error) ?? "Could not add the memory.") : null}
        onSubmit={(text) => create.mutate({ text, scope }, { onSuccess: () => setRound((n) => n + 1) })}
      >
        <fieldset className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          <legend className="sr-only">Remember it in</legend>
          {(["chat", "character"] as const).map((value) => (
            <label key={value} className="flex cursor-pointer items-center gap-1.5">
              <input type="radio" name={`${id}-scope`} value={value} checked={scope === value} onChange={() => setScope(value)} className="accent-pink-400" />
              {scopeLabel(value, characterName)}
            </label>
          ))}
        </fieldset>
      </MemoryForm>
    </section>
  );
}

interface MemoryFormProps {
  label: string;
  initial: string;
  submitLabel: string;
  pending: boolean;
  error: string | null;
  onSubmit: (text: string) => void;
  onCancel?: () => void;
  children?: React.ReactNode;
}

function MemoryForm({ label, initial, submitLabel, pending, error, onSubmit, onCancel, children }: MemoryFormProps) {
  const [text, setText] = useState(initial);
  const id = useId();
  const length = text.trim().length;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (pending || length === 0 || length > MAX_PINNED_MEMORY_LENGTH) return;
    onSubmit(text.trim());
  };
  return (
    <form onSubmit={submit} className="space-y-2" aria-busy={pending} noValidate>
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={`${id}-text`} className="sr-only">
          {label}
        </label>
        <span aria-hidden="true" />
        <span id={`${id}-counter`} className={cn("text-xs tabular-nums", length > MAX_PINNED_MEMORY_LENGTH ? "text-red-300" : "text-muted-foreground")}>
          {length.toLocaleString("en-US")}/{MAX_PINNED_MEMORY_LENGTH.toLocaleString("en-US")}
        </span>
      </div>
      <Textarea
        id={`${id}-text`}
        rows={3}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="e.g. Mira is afraid of deep water."
        aria-describedby={`${id}-counter`}
        className="resize-y text-[15px] leading-relaxed"
        autoFocus={onCancel !== undefined}
      />
      {children}
      {error && (
        <p role="alert" className="text-sm text-red-300">
          {error}
        </p>
      )}
      <div className="flex justify-end gap-2">
        {onCancel && (
          <Button type="button" variant="outline" size="sm" onClick={onCancel}>
            Cancel
          </Button>
        )}
        <Button type="submit" variant="gradient" size="sm" disabled={pending || length === 0 || length > MAX_PINNED_MEMORY_LENGTH}>
          {pending ? "Saving..." : submitLabel}
        </Button>
      </div>
    </form>
  );
}
