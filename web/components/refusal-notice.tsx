/**
 * What a person sees when their character, card, lorebook or chat file is
 * refused as sexual content involving minors (422 `content_refused`, issue
 * 35): the server's sentence, each refused field with what it says and what
 * to change (the error's `issues`), and an "Ask for review" button that
 * files a review request for the operator in one click
 * (`POST /api/reports/review`). `RefusalDialog` shows it over a page for
 * the imports (a card, a chat file), which have no form to show it in.
 */
import { ShieldAlert } from "lucide-react";
import { serverErrorText } from "../lib/api-client.ts";
import { refusalReasons, useRequestReview } from "../lib/request-review.ts";
import { Button } from "./ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "./ui/dialog.tsx";

export function RefusalNotice({ error }: { error: unknown }) {
  const review = useRequestReview();
  const reasons = refusalReasons(error);
  return (
    <div role="alert" className="rounded-md border border-destructive/50 bg-destructive/10 p-4 text-sm" data-testid="refusal-notice">
      <p className="flex items-start gap-2 font-medium">
        <ShieldAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        {serverErrorText(error) ?? "This can't be saved."}
      </p>
      {reasons.length > 0 && (
        <ul className="mt-2 list-disc space-y-1 pl-8">
          {reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      )}
      <div className="mt-3 flex flex-wrap items-center gap-3">
        {review.isSuccess ? (
          <p role="status">Review requested. A moderator will look at it; you can change the text meanwhile.</p>
        ) : (
          <Button type="button" variant="outline" size="sm" onClick={() => review.mutate()} disabled={review.isPending}>
            {review.isPending ? "Asking..." : "Ask for review"}
          </Button>
        )}
        {review.isError && <p role="status">We couldn't send the request. Please try again in a minute.</p>}
      </div>
    </div>
  );
}

/** RefusalNotice in a dialog titled `title` ("This card can't be imported"); `onClose` when it is dismissed. */
export function RefusalDialog({ error, title, onClose }: { error: unknown; title: string; onClose: () => void }) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>Change what is named below and try again, or ask a person to review it.</DialogDescription>
        </DialogHeader>
        <RefusalNotice error={error} />
        <DialogFooter>
          <Button type="button" variant="secondary" onClick={onClose}>
            Close
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
