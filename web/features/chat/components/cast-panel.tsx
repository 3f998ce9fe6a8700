/**
 * The cast panel of a chat (DESIGN.md "Group chats"): each member with
 * "Let {name} speak" (a `generate` frame through the chat socket), Muted,
 * Talkativeness (0–1) and Remove (after a confirmation; never the last
 * member); the reply order (natural, list, pooled, manual); and "Add
 * character", a search over the catalog with the person's favorites first,
 * up to MAX_CAST_SIZE members. Changes go over HTTP (api/cast.ts,
 * api/update-conversation.ts); other tabs hear of them by `cast_updated`.
 * A member of a shared room (`canEdit` false) sees the cast and "Let {name}
 * speak" only: the cast and the reply order are the owner's (DESIGN.md
 * "Shared rooms").
 */
import { ArrowLeft, Megaphone, UserMinus, UserPlus } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { type CastMember, type Conversation, MAX_CAST_SIZE, type ReplyOrder } from "../../../../schema/chat.ts";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { Avatar } from "../../../components/ui/avatar.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../../../components/ui/dialog.tsx";
import { Switch } from "../../../components/ui/switch.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { isUnauthorizedError, serverErrorText } from "../../../lib/api-client.ts";
import { notifyUnauthorized, type SignedInAction } from "../../../lib/unauthorized.ts";
import { cn } from "../../../lib/utils.ts";
import { useAddCastMember, useRemoveCastMember, useUpdateCastMember } from "../api/cast.ts";
import { useUpdateConversation } from "../api/update-conversation.ts";
import { castOf, REPLY_ORDER_CHOICES, talkativenessText } from "../lib/cast.ts";
import { characterInitial } from "../lib/chat-character.ts";
import { CharacterPicker } from "./character-picker.tsx";

/** What the panel shows first: the members, or the picker ("Add character" from the chat's menu). */
export type CastPanelView = "cast" | "add";

interface CastPanelProps {
  conversation: Conversation;
  initialView: CastPanelView;
  /** A reply is awaited or being written: nobody can be asked to speak now. */
  busy: boolean;
  /** Sends `generate` for the member; false when the socket is down. */
  onLetSpeak: (member: CastMember) => boolean;
  onClose: () => void;
  /** The viewer may change the cast and the reply order (the owner); default true. */
  canEdit?: boolean;
}

function failed(action: SignedInAction, fallback: string) {
  return (error: unknown) => {
    if (isUnauthorizedError(error)) notifyUnauthorized(action);
    else toast({ title: "Error", description: serverErrorText(error) ?? fallback, variant: "destructive" });
  };
}

/** Open while mounted. */
export function CastPanel({ conversation, initialView, busy, onLetSpeak, onClose, canEdit = true }: CastPanelProps) {
  const [view, setView] = useState<CastPanelView>(initialView);
  const [removing, setRemoving] = useState<CastMember | null>(null);
  const cast = castOf(conversation);
  const add = useAddCastMember(conversation.id);
  const remove = useRemoveCastMember(conversation.id);
  const full = cast.length >= MAX_CAST_SIZE;

  const onAdd = (characterId: number, name: string) => {
    if (add.isPending) return;
    add.mutate(characterId, {
      onSuccess: () => {
        toast({ title: "Character added", description: `${name} joined the chat.` });
        setView("cast");
      },
      onError: failed("view this conversation", `Failed to add ${name}. Please try again.`),
    });
  };

  const onConfirmRemove = () => {
    const member = removing;
    if (!member || remove.isPending) return;
    remove.mutate(member.id, {
      onSuccess: () => {
        setRemoving(null);
        toast({ title: "Character removed", description: `${member.name} left the chat. Their replies stay.` });
      },
      onError: (error) => {
        setRemoving(null);
        failed("view this conversation", `Failed to remove ${member.name}. Please try again.`)(error);
      },
    });
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="flex max-h-[calc(100dvh-2rem)] max-w-lg flex-col gap-4 overflow-hidden p-4 sm:p-6">
        {view === "cast" ? (
          <>
            <DialogHeader>
              <DialogTitle>Cast</DialogTitle>
              <DialogDescription>
                Who is in this chat and how they take part. Up to {MAX_CAST_SIZE} characters.
              </DialogDescription>
            </DialogHeader>
            <div className="-mx-4 flex min-h-24 flex-col gap-5 overflow-y-auto px-4 sm:-mx-6 sm:px-6">
              <section aria-labelledby="cast-members-heading" className="space-y-2">
                <div className="flex items-center justify-between gap-2">
                  <h3 id="cast-members-heading" className="text-sm font-semibold">
                    Members <span className="font-normal text-muted-foreground">({cast.length}/{MAX_CAST_SIZE})</span>
                  </h3>
                  {canEdit && (
                    <Button variant="outline" size="sm" disabled={full} onClick={() => setView("add")}>
                      <UserPlus aria-hidden="true" /> Add character
                    </Button>
                  )}
                </div>
                <ul className="flex flex-col gap-2">
                  {cast.map((member) => (
                    <MemberRow
                      key={member.id}
                      conversationId={conversation.id}
                      member={member}
                      last={cast.length === 1}
                      busy={busy}
                      canEdit={canEdit}
                      onLetSpeak={() => {
                        if (onLetSpeak(member)) onClose();
                      }}
                      onRemove={() => setRemoving(member)}
                    />
                  ))}
                </ul>
                {full && <p className="text-xs text-muted-foreground">This chat has the most characters it can have.</p>}
              </section>
            </div>
            {/* Outside the scrolling list, so it stays in view however long the cast (issue 41). */}
            {canEdit && <ReplyOrderChoice conversation={conversation} />}
            <DialogFooter>
              <DialogClose asChild>
                <Button variant="outline">Done</Button>
              </DialogClose>
            </DialogFooter>
          </>
        ) : (
          <>
            <DialogHeader>
              <div className="flex items-center gap-2">
                <Button variant="ghost" size="icon" aria-label="Back to the cast" className="-ml-2 size-8" onClick={() => setView("cast")}>
                  <ArrowLeft aria-hidden="true" />
                </Button>
                <DialogTitle>Add character</DialogTitle>
              </div>
              <DialogDescription>
                Bring another character into this chat ({cast.length}/{MAX_CAST_SIZE}). Your favorites come first.
              </DialogDescription>
            </DialogHeader>
            <CharacterPicker
              unavailable={new Map(cast.map((m) => [m.id, "Already in this chat"]))}
              full={full}
              busy={add.isPending}
              actionLabel={(c) => `Add ${c.name}`}
              onPick={(c) => onAdd(c.id, c.name)}
            />
          </>
        )}
        {/* Inside the cast's dialog, so Radix stacks the two (focus, Escape, outside clicks). */}
        <ConfirmDialog
          open={removing !== null}
          onOpenChange={(open) => !open && setRemoving(null)}
          title={`Remove ${removing?.name ?? ""}?`}
          description="They stop replying in this chat. What they already said stays, and you can add them again later."
          confirmLabel="Remove"
          pending={remove.isPending}
          onConfirm={onConfirmRemove}
        />
      </DialogContent>
    </Dialog>
  );
}

interface MemberRowProps {
  conversationId: string;
  member: CastMember;
  /** The only member: cannot be removed. */
  last: boolean;
  busy: boolean;
  /** Remove, Muted and Talkativeness are offered (the owner). */
  canEdit: boolean;
  onLetSpeak: () => void;
  onRemove: () => void;
}

function MemberRow({ conversationId, member, last, busy, canEdit, onLetSpeak, onRemove }: MemberRowProps) {
  const id = useId();
  const update = useUpdateCastMember(conversationId);
  // The slider moves freely and is saved when let go (pointer up, key up, leaving it).
  const [talkativeness, setTalkativeness] = useState(member.talkativeness);
  useEffect(() => setTalkativeness(member.talkativeness), [member.talkativeness]);
  const commitTalkativeness = () => {
    if (talkativeness === member.talkativeness) return;
    update.mutate(
      { characterId: member.id, patch: { talkativeness } },
      {
        onError: (error) => {
          setTalkativeness(member.talkativeness);
          failed("view this conversation", `Failed to change ${member.name}'s talkativeness. Please try again.`)(error);
        },
      },
    );
  };
  const setMuted = (muted: boolean) =>
    update.mutate(
      { characterId: member.id, patch: { muted } },
      { onError: failed("view this conversation", `Failed to ${muted ? "mute" : "unmute"} ${member.name}. Please try again.`) },
    );

  return (
    <li aria-label={member.name} className="rounded-xl border border-border bg-surface/40 p-3">
      <div className="flex items-center gap-3">
        <Avatar src={member.avatarUrl} fallback={characterInitial(member.name)} className={cn("size-10", member.muted && "grayscale")} />
        <div className="min-w-0 flex-1">
          <p className="truncate font-medium">{member.name}</p>
          {member.muted && <p className="text-xs text-muted-foreground">Muted: replies only when asked</p>}
        </div>
        {canEdit && (
        <Button
          variant="ghost"
          size="icon"
          aria-label={`Remove ${member.name}`}
          title={last ? "A chat needs at least one character" : `Remove ${member.name}`}
          disabled={last}
          onClick={onRemove}
          className="size-9 text-muted-foreground hover:text-red-300"
        >
          <UserMinus aria-hidden="true" />
        </Button>
        )}
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-3">
        <Button variant="secondary" size="sm" disabled={busy} onClick={onLetSpeak}>
          <Megaphone aria-hidden="true" /> Let {member.name} speak
        </Button>
        {canEdit && (
        <div className="flex items-center gap-2">
          <Switch
            id={`${id}-muted`}
            checked={member.muted}
            disabled={update.isPending}
            onCheckedChange={setMuted}
            aria-label={`Mute ${member.name}`}
          />
          <label htmlFor={`${id}-muted`} className="cursor-pointer text-sm select-none" aria-hidden="true">
            Muted
          </label>
        </div>
        )}
        {canEdit && (
        <div className="flex min-w-44 flex-1 items-center gap-2">
          <label htmlFor={`${id}-talk`} className="text-sm whitespace-nowrap">
            Talkativeness
          </label>
          <input
            id={`${id}-talk`}
            type="range"
            min={0}
            max={1}
            step={0.05}
            value={talkativeness}
            aria-valuetext={talkativenessText(talkativeness)}
            aria-label={`Talkativeness of ${member.name}`}
            onChange={(e) => setTalkativeness(Number(e.target.value))}
            onPointerUp={commitTalkativeness}
            onKeyUp={commitTalkativeness}
            onBlur={commitTalkativeness}
            className="h-2 min-w-16 flex-1 cursor-pointer accent-accent-pink"
          />
          <span className="w-10 text-right text-xs text-muted-foreground tabular-nums" aria-hidden="true">
            {talkativenessText(talkativeness)}
          </span>
        </div>
        )}
      </div>
    </li>
  );
}

function ReplyOrderChoice({ conversation }: { conversation: Conversation }) {
  const id = useId();
  const update = useUpdateConversation(conversation.id);
  // The choice shows at once; the server's answer (or a refusal) settles it.
  const [chosen, setChosen] = useState<ReplyOrder | null>(null);
  const current = chosen ?? conversation.replyOrder ?? "natural";
  const choose = (replyOrder: ReplyOrder) => {
    if (replyOrder === current) return;
    setChosen(replyOrder);
    update.mutate(
      { replyOrder },
      {
        onSettled: () => setChosen(null),
        onError: failed("view this conversation", "Failed to change who replies. Please try again."),
      },
    );
  };
  return (
    <fieldset className="shrink-0 border-t border-border pt-3" aria-busy={update.isPending}>
      <legend className="float-left mb-2 w-full text-sm font-semibold">Who replies after your message</legend>
      <div className="clear-both grid gap-2 sm:grid-cols-2">
      {REPLY_ORDER_CHOICES.map((choice) => {
        const checked = current === choice.value;
        return (
          <label
            key={choice.value}
            htmlFor={`${id}-${choice.value}`}
            className={cn(
              "flex cursor-pointer items-start gap-3 rounded-lg border border-border p-2.5 transition-colors hover:bg-surface has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring",
              checked && "border-accent-pink/60 bg-surface",
            )}
          >
            <input
              id={`${id}-${choice.value}`}
              type="radio"
              name={`${id}-reply-order`}
              value={choice.value}
              checked={checked}
              onChange={() => choose(choice.value)}
              aria-describedby={`${id}-${choice.value}-hint`}
              className="mt-1 accent-accent-pink"
            />
            <span>
              <span className="block text-sm font-medium">{choice.label}</span>
              <span id={`${id}-${choice.value}-hint`} className="block text-xs text-muted-foreground">
                {choice.hint}
              </span>
            </span>
          </label>
        );
      })}
      </div>
    </fieldset>
  );
}
