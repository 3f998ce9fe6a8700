/**
 * "Import card": picks a character card file (PNG or JSON, V1/V2/V3), sends
 * it to `POST /api/characters/import` and opens the new character's edit
 * page to review it (it starts inactive). Refusals are toasts with the
 * server's sentence; a refusal as sexual content involving minors is a
 * dialog instead, with the refused field, what to change and "Ask for
 * review" (RefusalDialog, issue 35).
 */
import { FileUp } from "lucide-react";
import { useRef, useState } from "react";
import { useNavigate } from "react-router";
import { Button } from "../../../components/ui/button.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { RefusalDialog } from "../../../components/refusal-notice.tsx";
import { errorStatus, serverErrorText } from "../../../lib/api-client.ts";
import { isContentRefusal } from "../../../lib/request-review.ts";
import { CARD_FILE_ACCEPT, CardFileError, useImportCharacterCard } from "../api/import-character-card.ts";

export function ImportCardButton() {
  const inputRef = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const importCard = useImportCharacterCard();
  const [refusal, setRefusal] = useState<unknown>(null);

  const onFile = (file: File | undefined) => {
    if (!file) return;
    setRefusal(null);
    importCard.mutate(file, {
      onSuccess: (character) => {
        toast({
          title: "Success!",
          description: `${character.name} was imported. Review it, then activate it on My Characters.`,
        });
        navigate(`/edit-character/${character.id}`);
      },
      onError: (error) => {
        if (isContentRefusal(error)) {
          setRefusal(error);
          return;
        }
        const description =
          error instanceof CardFileError
            ? error.message
            : errorStatus(error) === 401
              ? "Please sign in to import a character card"
              : (serverErrorText(error) ?? "Failed to import character card");
        toast({ title: "Error", description, variant: "destructive" });
      },
    });
  };

  return (
    <>
      <Button variant="outline" onClick={() => inputRef.current?.click()} disabled={importCard.isPending}>
        <FileUp aria-hidden="true" /> {importCard.isPending ? "Importing..." : "Import card"}
      </Button>
      <input
        ref={inputRef}
        type="file"
        accept={CARD_FILE_ACCEPT}
        hidden
        data-testid="import-card-input"
        onChange={(e) => {
          onFile(e.target.files?.[0]);
          // The same file may be chosen again after a fix.
          e.target.value = "";
        }}
      />
      {refusal !== null && <RefusalDialog error={refusal} title="This card can't be imported" onClose={() => setRefusal(null)} />}
    </>
  );
}
