/**
 * "Imagine" (DESIGN.md "Pictures"): a picture of the scene. Left empty, the
 * chat model writes the picture's prompt from the last turns and the
 * speaker's appearance; else the person's words are painted. Says how many
 * pictures the person made today of the day's limit, and plainly when the
 * offline painter (shapes and colours from the words, not art) answers.
 */
import { ImageIcon } from "lucide-react";
import { type FormEvent, useState } from "react";
import { MAX_IMAGINE_PROMPT_LENGTH } from "../../../../schema/chat.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../../../components/ui/dialog.tsx";
import { FormField } from "../../../components/ui/form-field.tsx";
import { Textarea } from "../../../components/ui/textarea.tsx";
import { useImageUsage } from "../api/get-image-usage.ts";

interface ImagineDialogProps {
  open: boolean;
  onClose: () => void;
  /** Sends `imagine` with the words (undefined: picture the scene); false when the socket is down (the dialog stays). */
  onImagine: (prompt: string | undefined) => boolean;
}

export function ImagineDialog({ open, onClose, onImagine }: ImagineDialogProps) {
  const [prompt, setPrompt] = useState("");
  const usage = useImageUsage(open);
  const left = usage.data ? usage.data.limit - usage.data.used : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (onImagine(prompt.trim() || undefined)) {
      setPrompt("");
      onClose();
    }
  };
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent>
        <form onSubmit={submit} className="flex flex-col gap-4">
          <DialogHeader>
            <DialogTitle>Imagine the scene</DialogTitle>
            <DialogDescription>Leave it empty to picture what is happening now, or describe the picture you want.</DialogDescription>
          </DialogHeader>
          <FormField id="imagine-prompt" label="Describe the picture (optional)" aside={<span className="text-xs text-muted-foreground">{prompt.length} / {MAX_IMAGINE_PROMPT_LENGTH}</span>}>
            {(describedBy) => (
              <Textarea
                id="imagine-prompt"
                aria-describedby={describedBy}
                value={prompt}
                maxLength={MAX_IMAGINE_PROMPT_LENGTH}
                rows={3}
                placeholder="The two of them on the lighthouse balcony at night, lantern light, stormy sea"
                onChange={(event) => setPrompt(event.target.value)}
              />
            )}
          </FormField>
          {usage.data && (
            <p className="text-xs text-muted-foreground" data-image-usage>
              {usage.data.used} of {usage.data.limit} pictures today.
              {usage.data.provider === "offline" && " Pictures here come from the offline painter: shapes and colours from your words, not an image model."}
            </p>
          )}
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="ghost">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" disabled={left !== null && left <= 0}>
              <ImageIcon aria-hidden="true" /> Imagine
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
