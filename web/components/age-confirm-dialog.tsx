/**
 * The confirmation asked the first time someone turns NSFW on (issue 26
 * "Adult content, deliberately"): they say they are 18 or older, or cancel
 * and NSFW stays off. An alert dialog (WAI-ARIA): a click outside does
 * nothing; Escape or Cancel answer no. Loaded only when first needed.
 */
import { Button } from "./ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "./ui/dialog.tsx";

interface AgeConfirmDialogProps {
  open: boolean;
  /** The person said they are 18 or older. */
  onConfirm: () => void;
  /** The person cancelled (button, Escape). */
  onCancel: () => void;
}

export function AgeConfirmDialog({ open, onConfirm, onCancel }: AgeConfirmDialogProps) {
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onCancel()}>
      <DialogContent role="alertdialog">
        <DialogHeader>
          <DialogTitle>Are you 18 or older?</DialogTitle>
          <DialogDescription>
            NSFW characters include adult and sexually explicit content. Show them only if you are 18 or older and want to see
            such content.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button variant="gradient" onClick={onConfirm}>
            I am 18 or older
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
