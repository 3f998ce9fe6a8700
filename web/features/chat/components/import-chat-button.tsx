/**
 * "Import chat" on a character's page: picks a SillyTavern chat file
 * (.jsonl), sends it to `POST /api/conversations/import?characterId=` and
 * opens the new conversation. A file refused as sexual content involving
 * minors is a dialog naming the message and offering a review (issue 35);
 * any other refused file is a toast with the server's
 * sentence (it names the line); visitors are asked to sign in first.
 */
import { FileUp, LoaderCircle } from "lucide-react";
import { useRef, useState } from "react";
import { useNavigate } from "react-router";
import { Button } from "../../../components/ui/button.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { RefusalDialog } from "../../../components/refusal-notice.tsx";
import { isUnauthorizedError, serverErrorText } from "../../../lib/api-client.ts";
import { isContentRefusal } from "../../../lib/request-review.ts";
import { useUser } from "../../../lib/auth.ts";
import { notifyUnauthorized } from "../../../lib/unauthorized.ts";
import { CHAT_FILE_ACCEPT, useImportConversation } from "../api/import-conversation.ts";

export function ImportChatButton({ characterId, className }: { characterId: number; className?: string }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const { user, isLoading } = useUser();
  const importChat = useImportConversation(characterId);
  // A refusal as sexual content involving minors: which message of the file, why, and "Ask for review" (issue 35).
  const [refusal, setRefusal] = useState<unknown>(null);

  const choose = () => {
    // Still asking who this is: let the server decide (a 401 lands in onError below).
    if (!user && !isLoading) {
      notifyUnauthorized("import a chat");
      return;
    }
    inputRef.current?.click();
  };

  const onFile = (file: File | undefined) => {
    if (!file || importChat.isPending) return;
    importChat.mutate(file, {
      onSuccess: (conversation) => {
        toast({ title: "Chat imported", description: `${file.name} is now a chat of yours.` });
        navigate(`/chat/${conversation.id}`);
      },
      onError: (error) => {
        if (isUnauthorizedError(error)) notifyUnauthorized("import a chat");
        else if (isContentRefusal(error)) setRefusal(error);
        else toast({ title: "Error", description: serverErrorText(error) ?? "Failed to import the chat. Please try again.", variant: "destructive" });
      },
    });
  };

  return (
    <>
      <Button variant="outline" size="lg" onClick={choose} disabled={importChat.isPending} aria-busy={importChat.isPending} className={className}>
        {importChat.isPending ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <FileUp aria-hidden="true" />}
        {importChat.isPending ? "Importing..." : "Import chat"}
      </Button>
      <input
        ref={inputRef}
        type="file"
        accept={CHAT_FILE_ACCEPT}
        hidden
        data-testid="import-chat-input"
        onChange={(e) => {
          onFile(e.target.files?.[0]);
          // The same file may be chosen again after a fix.
          e.target.value = "";
        }}
      />
      {refusal !== null && <RefusalDialog error={refusal} title="This chat can't be imported" onClose={() => setRefusal(null)} />}
    </>
  );
}
