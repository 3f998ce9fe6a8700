/**
 * "Why this reply?" (DESIGN.md "Memory", the prompt inspector): what was
 * sent for the version shown of a character reply, read from `GET
 * …/messages/{messageId}/prompt` (the owner): each section of the prompt
 * with its estimated tokens, the earlier messages recalled into it (choosing
 * one closes the dialog and jumps to it), each lorebook entry that fired
 * (its title, its book, and why: the key that matched, constant, sticky,
 * recursion, a decorator), and the raw prompt, folded. The focus goes back to the opener on close.
 */
import { BookOpen, ChevronRight, History } from "lucide-react";
import { useRef } from "react";
import type { PromptSectionKind } from "../../../../schema/chat.ts";
import { whyFired } from "../../../../schema/lorebook/why.ts";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../../components/ui/dialog.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { serverErrorText } from "../../../lib/api-client.ts";
import { cn } from "../../../lib/utils.ts";
import { usePromptRecord } from "../api/get-prompt-record.ts";

/** The sections' names as the inspector shows them, in the words of SillyTavern's prompt itemization. */
export const SECTION_NAMES: Record<PromptSectionKind, string> = {
  system: "System prompt",
  character: "Character card",
  persona: "Persona",
  memory_note: "Memory note",
  pinned: "Pinned memories",
  recalled: "Recalled memories",
  summary: "Story so far (summary)",
  lorebook: "Lorebook",
  examples: "Example dialogue",
  history: "Chat history",
  author_note: "Author's note",
  post_history: "Post-history instructions",
};

interface WhyThisReplyDialogProps {
  conversationId: string;
  messageId: string;
  /** An earlier message of the chat as shown, for the recalled list; undefined when it is not on screen. */
  messageOf: (messageId: string) => { speaker: string; content: string } | undefined;
  /** A recalled message was chosen: the dialog closes and the chat goes to it. */
  onJump: (messageId: string) => void;
  onClose: () => void;
  /** Gets the focus back when the dialog closes (not after a jump). */
  opener: HTMLElement | null;
}

/** Open while mounted. */
export function WhyThisReplyDialog({ conversationId, messageId, messageOf, onJump, onClose, opener }: WhyThisReplyDialogProps) {
  const record = usePromptRecord(conversationId, messageId);
  const jumped = useRef(false);
  const total = record.data?.tokens ?? 0;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        className="max-h-[90dvh] max-w-xl overflow-y-auto"
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          if (!jumped.current) opener?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>Why this reply?</DialogTitle>
          <DialogDescription>What the model was sent for this version of the reply.</DialogDescription>
        </DialogHeader>
        {record.isPending ? (
          <div aria-hidden="true" className="space-y-2">
            <Skeleton className="h-6 w-full" />
            <Skeleton className="h-6 w-5/6" />
            <Skeleton className="h-6 w-2/3" />
          </div>
        ) : record.isError ? (
          <p role="alert" className="text-sm text-red-300">
            {serverErrorText(record.error) ?? "Could not load the prompt."}
          </p>
        ) : (
          <div className="space-y-5">
            <section aria-labelledby="why-sections" className="space-y-2">
              <h3 id="why-sections" className="flex items-baseline justify-between text-sm font-semibold">
                Prompt sections
                <span className="text-xs font-normal text-muted-foreground">
                  {record.data.model} · {total.toLocaleString("en-US")} tokens
                </span>
              </h3>
              <ul className="space-y-1.5">
                {record.data.sections.map((section, index) => (
                  <li key={`${section.kind}-${index}`} className="text-sm">
                    <div className="flex items-baseline justify-between gap-2">
                      <span>{SECTION_NAMES[section.kind] ?? section.kind}</span>
                      <span className="text-xs tabular-nums text-muted-foreground">{section.tokens.toLocaleString("en-US")} tokens</span>
                    </div>
                    <div aria-hidden="true" className="mt-0.5 h-1.5 rounded-full bg-surface">
                      <div
                        className={cn("h-full rounded-full", section.kind === "recalled" || section.kind === "pinned" ? "bg-pink-400" : "bg-violet-400")}
                        style={{ width: `${total > 0 ? Math.max(1, Math.round((section.tokens / total) * 100)) : 0}%` }}
                      />
                    </div>
                  </li>
                ))}
              </ul>
            </section>
            <section aria-labelledby="why-recalled" className="space-y-2">
              <h3 id="why-recalled" className="text-sm font-semibold">
                Recalled messages
              </h3>
              {record.data.recalled.length === 0 ? (
                <p className="text-sm text-muted-foreground">Nothing older was recalled: the chat history held all the model needed.</p>
              ) : (
                <ul className="space-y-1.5">
                  {record.data.recalled.map((id) => {
                    const message = messageOf(id);
                    return (
                      <li key={id}>
                        <button
                          type="button"
                          disabled={!message}
                          onClick={() => {
                            jumped.current = true;
                            onJump(id);
                          }}
                          className="flex w-full cursor-pointer items-start gap-2 rounded-lg border border-border bg-surface/60 px-3 py-2 text-left text-sm hover:border-violet-400/60 focus-visible:outline-2 focus-visible:outline-ring disabled:cursor-default disabled:opacity-70"
                        >
                          <History aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-pink-300" />
                          <span className="min-w-0 flex-1">
                            {message ? (
                              <>
                                <span className="font-semibold">{message.speaker}: </span>
                                <span className="line-clamp-2">{message.content}</span>
                              </>
                            ) : (
                              <span className="text-muted-foreground">A message no longer in the chat</span>
                            )}
                          </span>
                        </button>
                      </li>
                    );
                  })}
                </ul>
              )}
            </section>
            {record.data.lorebook.length > 0 && (
              <section aria-labelledby="why-lorebook" className="space-y-2">
                <h3 id="why-lorebook" className="text-sm font-semibold">
                  Lorebook entries
                </h3>
                <ul aria-labelledby="why-lorebook" className="space-y-1.5">
                  {record.data.lorebook.map((entry) => (
                    <li key={`${entry.lorebookId}.${entry.entryId}`} className="flex items-start gap-2 rounded-lg border border-border bg-surface/60 px-3 py-2 text-sm">
                      <BookOpen aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-violet-300" />
                      <span className="min-w-0 flex-1">
                        <span className="font-semibold break-words">{entry.title || `Entry ${entry.entryId}`}</span>
                        {entry.lorebookName ? <span className="break-words text-muted-foreground"> · {entry.lorebookName}</span> : null}
                        <span className="block text-xs break-words text-muted-foreground">{whyFired(entry)}</span>
                      </span>
                    </li>
                  ))}
                </ul>
              </section>
            )}
            <details className="group rounded-lg border border-border">
              <summary className="flex cursor-pointer list-none items-center gap-1.5 px-3 py-2 text-sm font-semibold">
                <ChevronRight aria-hidden="true" className="size-4 transition-transform group-open:rotate-90" /> Raw prompt
              </summary>
              <ol className="space-y-3 border-t border-border px-3 py-3">
                {record.data.messages.map((message, index) => (
                  <li key={index}>
                    <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">{message.role}</p>
                    <pre className="mt-1 font-mono text-xs break-words whitespace-pre-wrap">{message.content}</pre>
                  </li>
                ))}
              </ol>
            </details>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
