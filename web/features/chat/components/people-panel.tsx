/**
 * The people of a conversation (DESIGN.md "Shared rooms"; "People" in the
 * chat menu): every member with their role and whether they have the chat
 * open now (`presence`). The owner removes others, a member leaves; both
 * after a confirmation (`DELETE …/members/{userId}`). Leaving goes to My
 * Chats: the conversation is no longer theirs to read. A removed person
 * comes back only by a link made after the removal; one who left, by any
 * link still open (docs/decisions/0025).
 */
import { useState } from "react";
import { useNavigate } from "react-router";
import type { Conversation, ConversationMember } from "../../../../schema/chat.ts";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { Avatar } from "../../../components/ui/avatar.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../../../components/ui/dialog.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { serverErrorText } from "../../../lib/api-client.ts";
import { useRemoveMember } from "../api/members.ts";
import { characterInitial } from "../lib/chat-character.ts";

interface PeoplePanelProps {
  conversation: Conversation;
  /** The signed-in person's user id. */
  viewerId: string;
  /** User ids with the chat open now. */
  here: ReadonlySet<string>;
  onClose: () => void;
}

/** Open while mounted. */
export function PeoplePanel({ conversation, viewerId, here, onClose }: PeoplePanelProps) {
  const navigate = useNavigate();
  const remove = useRemoveMember(conversation.id);
  const [confirming, setConfirming] = useState<ConversationMember | null>(null);
  const isOwner = conversation.members.some((m) => m.userId === viewerId && m.role === "owner");
  const leaving = confirming?.userId === viewerId;

  const onConfirm = () => {
    const member = confirming;
    if (!member) return;
    remove.mutate(member.userId, {
      onSuccess: () => {
        setConfirming(null);
        if (member.userId === viewerId) {
          navigate("/chats");
          toast({ title: "You left the chat" });
        } else {
          toast({ title: "Removed", description: `${member.name} is no longer in this chat.` });
        }
      },
      onError: (error) => {
        setConfirming(null);
        toast({ title: "Error", description: serverErrorText(error) ?? "Please try again.", variant: "destructive" });
      },
    });
  };

  return (
    <>
      <Dialog open={confirming === null} onOpenChange={(open) => !open && onClose()}>
        <DialogContent className="max-w-md">
          <DialogHeader>
            <DialogTitle>People</DialogTitle>
            <DialogDescription>
              {conversation.members.length === 1 ? "Only you are in this chat." : `${conversation.members.length} people are in this chat.`}
            </DialogDescription>
          </DialogHeader>
          <ul className="space-y-2">
            {conversation.members.map((member) => (
              <li key={member.userId} className="flex items-center gap-3 rounded-xl bg-surface px-3 py-2">
                <Avatar src={member.avatarUrl} fallback={characterInitial(member.name)} className="size-9" />
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium">
                    {member.name}
                    {member.userId === viewerId && <span className="text-muted-foreground"> (you)</span>}
                  </p>
                  <p className="text-xs text-muted-foreground">
                    {member.role === "owner" ? "Owner" : "Member"}
                    {here.has(member.userId) && " · here now"}
                  </p>
                </div>
                {isOwner && member.userId !== viewerId && (
                  <Button variant="outline" size="sm" onClick={() => setConfirming(member)} aria-label={`Remove ${member.name}`}>
                    Remove
                  </Button>
                )}
                {!isOwner && member.userId === viewerId && (
                  <Button variant="outline" size="sm" onClick={() => setConfirming(member)}>
                    Leave chat
                  </Button>
                )}
              </li>
            ))}
          </ul>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="gradient">Done</Button>
            </DialogClose>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={leaving ? "Leave this chat?" : `Remove ${confirming?.name ?? ""}?`}
        description={
          leaving
            ? "You will no longer see this chat. You can come back by any of its invitation links that still works."
            : "They will no longer see this chat. They can come back only with a new invitation link."
        }
        confirmLabel={leaving ? "Leave chat" : "Remove"}
        onConfirm={onConfirm}
        pending={remove.isPending}
      />
    </>
  );
}
