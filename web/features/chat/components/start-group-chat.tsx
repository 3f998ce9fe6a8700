/**
 * "Start group chat" on a character's page (DESIGN.md "Group chats"): a
 * dialog that starts from this character and adds up to MAX_CAST_SIZE − 1
 * more from the catalog (favorites first), then either starts the chat
 * (`POST /api/conversations {characterIds}`) or imports a SillyTavern group
 * chat file onto that cast (`POST /api/conversations/import?characterIds=`,
 * each message's `name` mapped onto a chosen character). The new chat
 * opens; a refusal (unknown names in the file, a broken line) is shown in
 * the dialog in the server's words. Visitors are asked to sign in first.
 */
import { FileUp, LoaderCircle, Users, X } from "lucide-react";
import { useRef, useState } from "react";
import { useNavigate } from "react-router";
import { MAX_CAST_SIZE } from "../../../../schema/chat.ts";
import { Avatar } from "../../../components/ui/avatar.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../../../components/ui/dialog.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { isUnauthorizedError, serverErrorText } from "../../../lib/api-client.ts";
import { useUser } from "../../../lib/auth.ts";
import { notifyUnauthorized } from "../../../lib/unauthorized.ts";
import { useCreateGroupConversation } from "../api/create-group-conversation.ts";
import { CHAT_FILE_ACCEPT, useImportGroupConversation } from "../api/import-conversation.ts";
import { characterInitial } from "../lib/chat-character.ts";
import { CharacterPicker } from "./character-picker.tsx";

interface GroupMember {
  id: number;
  name: string;
  avatarUrl: string | null;
}

/** The button and its dialog; `character` is the page's character, always the first member. */
export function StartGroupChatButton({ character, className }: { character: GroupMember; className?: string }) {
  const { user, isLoading } = useUser();
  const [open, setOpen] = useState(false);
  const openDialog = () => {
    // Still asking who this is: let the server decide (a 401 lands in the dialog's onError).
    if (!user && !isLoading) {
      notifyUnauthorized("start a chat");
      return;
    }
    setOpen(true);
  };
  return (
    <>
      <Button variant="outline" size="lg" onClick={openDialog} className={className}>
        <Users aria-hidden="true" /> Start group chat
      </Button>
      {open && <StartGroupDialog character={character} onClose={() => setOpen(false)} />}
    </>
  );
}

function StartGroupDialog({ character, onClose }: { character: GroupMember; onClose: () => void }) {
  const navigate = useNavigate();
  const [others, setOthers] = useState<GroupMember[]>([]);
  const [error, setError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const create = useCreateGroupConversation();
  const importChat = useImportGroupConversation();
  const cast = [character, ...others];
  const ids = cast.map((m) => m.id);
  const pending = create.isPending || importChat.isPending;

  const toggle = (member: GroupMember) => {
    setError(null);
    setOthers((list) =>
      list.some((m) => m.id === member.id) ? list.filter((m) => m.id !== member.id) : list.length + 1 < MAX_CAST_SIZE ? [...list, member] : list,
    );
  };

  const refused = (action: "start a chat" | "import a chat", fallback: string) => (e: Error) => {
    if (isUnauthorizedError(e)) notifyUnauthorized(action);
    else setError(serverErrorText(e) ?? fallback);
  };

  const start = () => {
    if (pending || others.length === 0) return;
    setError(null);
    create.mutate(ids, {
      onSuccess: (conversation) => navigate(`/chat/${conversation.id}`),
      onError: refused("start a chat", "Failed to start the group chat. Please try again."),
    });
  };

  const onFile = (file: File | undefined) => {
    if (!file || pending) return;
    setError(null);
    importChat.mutate(
      { characterIds: ids, file },
      {
        onSuccess: (conversation) => {
          toast({ title: "Chat imported", description: `${file.name} is now a chat of yours.` });
          navigate(`/chat/${conversation.id}`);
        },
        onError: refused("import a chat", "Failed to import the chat. Please try again."),
      },
    );
  };

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="flex max-h-[calc(100dvh-2rem)] max-w-lg flex-col gap-4 overflow-hidden p-4 sm:p-6">
        <DialogHeader>
          <DialogTitle>Start a group chat</DialogTitle>
          <DialogDescription>
            {character.name} and up to {MAX_CAST_SIZE - 1} more characters in one chat. Your favorites come first. To bring in a SillyTavern
            group chat, choose its characters, then import the file.
          </DialogDescription>
        </DialogHeader>
        <section aria-labelledby="group-cast-heading" className="space-y-2">
          <h3 id="group-cast-heading" className="text-sm font-semibold">
            Cast <span className="font-normal text-muted-foreground">({cast.length}/{MAX_CAST_SIZE})</span>
          </h3>
          <ul className="flex flex-wrap gap-2">
            {cast.map((member, index) => (
              <li key={member.id} className="flex items-center gap-1.5 rounded-full border border-border bg-surface py-1 pr-1 pl-1 text-sm">
                <Avatar src={member.avatarUrl} fallback={characterInitial(member.name)} className="size-6" fallbackClassName="text-xs" />
                <span className="max-w-32 truncate pr-1">{member.name}</span>
                {index > 0 && (
                  <button
                    type="button"
                    aria-label={`Take ${member.name} out of the group`}
                    onClick={() => toggle(member)}
                    className="cursor-pointer rounded-full p-1 text-muted-foreground hover:bg-surface-hover hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
                  >
                    <X aria-hidden="true" className="size-3.5" />
                  </button>
                )}
              </li>
            ))}
          </ul>
        </section>
        <div className="flex min-h-0 flex-col overflow-hidden">
          <CharacterPicker
            chosen={new Set(others.map((m) => m.id))}
            unavailable={new Map([[character.id, "Already in the group"]])}
            full={cast.length >= MAX_CAST_SIZE}
            busy={pending}
            actionLabel={(c, chosen) => (chosen ? `Take ${c.name} out of the group` : `Add ${c.name} to the group`)}
            onPick={(c) => toggle({ id: c.id, name: c.name, avatarUrl: c.avatarUrl })}
          />
        </div>
        {error && (
          <p role="alert" className="rounded-lg border border-red-900/70 bg-red-950/50 px-3 py-2 text-sm text-red-100">
            {error}
          </p>
        )}
        <DialogFooter>
          <Button variant="outline" disabled={pending} onClick={() => fileInput.current?.click()} aria-busy={importChat.isPending}>
            {importChat.isPending ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <FileUp aria-hidden="true" />}
            {importChat.isPending ? "Importing..." : "Import group chat file"}
          </Button>
          <Button variant="gradient" disabled={pending || others.length === 0} onClick={start} aria-busy={create.isPending}>
            {create.isPending ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <Users aria-hidden="true" />}
            Start group chat
          </Button>
        </DialogFooter>
        <input
          ref={fileInput}
          type="file"
          accept={CHAT_FILE_ACCEPT}
          hidden
          data-testid="import-group-chat-input"
          onChange={(e) => {
            onFile(e.target.files?.[0]);
            e.target.value = "";
          }}
        />
      </DialogContent>
    </Dialog>
  );
}
