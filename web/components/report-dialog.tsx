/**
 * The Report action (issue "Trust and safety"): a small dialog with the
 * reason (a radio group, in REPORT_REASONS order) and optional details of at
 * most 1,000 characters, sent as `POST /api/reports`. A new report (201) and
 * a repeat of the person's open one (200) both end with the "Report sent"
 * toast; a refusal (own content, a target gone, a suspended account, the
 * rate limit) stays in the dialog with the server's sentence. Visitors get
 * the Unauthorized flow of SPEC.md §8 instead of the dialog.
 *
 * Shared by the character page, the comments, the chat and a shared story, hence here and
 * not in one feature folder.
 */
import { Flag } from "lucide-react";
import { type FormEvent, type ReactNode, useRef, useState } from "react";
import { MAX_REPORT_DETAILS_LENGTH, REPORT_REASONS } from "../../schema/constants.ts";
import { isUnauthorizedError } from "../lib/api-client.ts";
import { useUser } from "../lib/auth.ts";
import { useCreateReport } from "../lib/create-report.ts";
import {
  type ReportFormErrors,
  type ReportFormValues,
  type ReportTarget,
  buildReportRequest,
  detailsLength,
  reportErrorsFromServer,
} from "../lib/report-form.ts";
import { notifyUnauthorized } from "../lib/unauthorized.ts";
import { cn } from "../lib/utils.ts";
import { Button, type ButtonProps } from "./ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "./ui/dialog.tsx";
import { FormField } from "./ui/form-field.tsx";
import { Textarea } from "./ui/textarea.tsx";
import { toast } from "./ui/use-toast.ts";

/** The success toast, for a new report and for a repeat alike. */
export const REPORT_SENT_TOAST = { title: "Report sent", description: "Thank you. Our team will review it." } as const;

const TITLES: Record<ReportTarget["targetType"], string> = {
  character: "Report character",
  comment: "Report comment",
  message: "Report reply",
  share: "Report shared story",
};

/** What to report, and how the dialog names it. */
export interface ReportSubject {
  target: ReportTarget;
  /** Named in the dialog's description: "Luna", "this comment by @wren", "this reply from Luna". */
  subject: string;
  /** The dialog's title when the target type's own does not fit ("Report picture" for a chat's picture, a message to the API). */
  title?: string;
}

interface ReportDialogProps extends ReportSubject {
  onClose: () => void;
  /**
   * Focused again when the dialog closes (the button that opened it). The
   * dialog is mounted rather than opened by a Radix trigger, which would
   * otherwise leave the focus on the page's body.
   */
  returnFocusTo?: HTMLElement | null;
}

/** Open while mounted; mount it with a `key` per target so the form starts empty. */
export function ReportDialog({ target, subject, title, onClose, returnFocusTo }: ReportDialogProps) {
  const [values, setValues] = useState<ReportFormValues>({ reason: null, details: "" });
  const [errors, setErrors] = useState<ReportFormErrors>({});
  const formRef = useRef<HTMLFormElement>(null);
  const send = useCreateReport();
  const length = detailsLength(values.details);

  const focusFirstInvalid = () =>
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], fieldset[data-invalid] input')?.focus());

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (send.isPending) return;
    const built = buildReportRequest(target, values);
    if (!built.request) {
      setErrors(built.errors);
      focusFirstInvalid();
      return;
    }
    setErrors({});
    send.mutate(built.request, {
      onSuccess: () => {
        toast(REPORT_SENT_TOAST);
        onClose();
      },
      onError: (error) => {
        if (isUnauthorizedError(error)) {
          onClose();
          notifyUnauthorized("report");
          return;
        }
        const next = reportErrorsFromServer(error);
        setErrors(next);
        if (next.reason || next.details) focusFirstInvalid();
      },
    });
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        className="max-h-[calc(100dvh-2rem)] max-w-lg overflow-y-auto"
        onCloseAutoFocus={(event) => {
          if (!returnFocusTo?.isConnected) return;
          event.preventDefault();
          returnFocusTo.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>{title ?? TITLES[target.targetType]}</DialogTitle>
          <DialogDescription>Tell us what is wrong with {subject}. Our team reviews every report.</DialogDescription>
        </DialogHeader>
        <form ref={formRef} onSubmit={submit} noValidate className="space-y-5" aria-busy={send.isPending}>
          <fieldset
            data-invalid={errors.reason ? true : undefined}
            aria-describedby={errors.reason ? "report-reason-error" : undefined}
            className="space-y-2"
          >
            <legend className="mb-2 text-sm font-medium">Reason</legend>
            <div className="grid gap-1.5">
              {REPORT_REASONS.map((reason) => (
                <label
                  key={reason.value}
                  className={cn(
                    "flex cursor-pointer items-center gap-3 rounded-lg border border-border bg-surface/40 px-3 py-2 text-sm transition-colors hover:bg-surface",
                    "has-[:checked]:border-primary has-[:checked]:bg-primary/10",
                    "has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring",
                  )}
                >
                  <input
                    type="radio"
                    name="report-reason"
                    value={reason.value}
                    checked={values.reason === reason.value}
                    onChange={() => {
                      setValues((v) => ({ ...v, reason: reason.value }));
                      setErrors(({ reason: _stale, ...rest }) => rest);
                    }}
                    className="size-4 shrink-0 cursor-pointer accent-primary focus-visible:outline-none"
                  />
                  {reason.label}
                </label>
              ))}
            </div>
            {errors.reason && (
              <p id="report-reason-error" className="text-sm font-medium text-red-400">
                {errors.reason}
              </p>
            )}
          </fieldset>
          <FormField
            id="report-details"
            label="Details (Optional)"
            hint="Anything that helps our team: what is wrong and where."
            error={errors.details}
            aside={
              <span
                className={cn("text-xs tabular-nums", length > MAX_REPORT_DETAILS_LENGTH ? "text-red-400" : "text-muted-foreground")}
              >
                <span aria-hidden="true">
                  {length.toLocaleString("en-US")}/{MAX_REPORT_DETAILS_LENGTH.toLocaleString("en-US")}
                </span>
                <span className="sr-only">
                  {length.toLocaleString("en-US")} of {MAX_REPORT_DETAILS_LENGTH.toLocaleString("en-US")} characters
                </span>
              </span>
            }
          >
            {(describedBy) => (
              <Textarea
                id="report-details"
                name="details"
                rows={4}
                maxLength={MAX_REPORT_DETAILS_LENGTH}
                value={values.details}
                onChange={(e) => {
                  const details = e.target.value;
                  setValues((v) => ({ ...v, details }));
                  setErrors(({ details: _stale, ...rest }) => rest);
                }}
                aria-invalid={errors.details ? true : undefined}
                aria-describedby={describedBy}
                className="resize-y"
              />
            )}
          </FormField>
          {errors.form && (
            <p role="alert" className="rounded-lg border border-red-900/70 bg-red-950/50 px-3 py-2 text-sm text-red-100">
              {errors.form}
            </p>
          )}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" variant="gradient" disabled={send.isPending}>
              {send.isPending ? "Sending..." : "Send Report"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/**
 * The Report action's state: `openReport(subject, opener)` opens the dialog
 * for a signed-in person (or while it is not yet known who this is: the
 * server decides, and a 401 brings the Unauthorized flow), and sends a
 * visitor to sign in (SPEC.md §8). `opener` gets the focus back when the
 * dialog closes (default: what has the focus now). Render `reportDialog`
 * once, anywhere.
 */
export function useReportDialog(): {
  openReport: (subject: ReportSubject, opener?: HTMLElement | null) => void;
  reportDialog: ReactNode;
} {
  const { user, isLoading } = useUser();
  const [open, setOpen] = useState<(ReportSubject & { opener: HTMLElement | null }) | null>(null);
  const openReport = (subject: ReportSubject, opener?: HTMLElement | null) => {
    if (!user && !isLoading) {
      notifyUnauthorized("report");
      return;
    }
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setOpen({ ...subject, opener: opener === undefined ? focused : opener });
  };
  const reportDialog = open ? (
    <ReportDialog
      key={`${open.target.targetType}:${open.target.targetId}`}
      target={open.target}
      subject={open.subject}
      title={open.title}
      returnFocusTo={open.opener}
      onClose={() => setOpen(null)}
    />
  ) : null;
  return { openReport, reportDialog };
}

interface ReportButtonProps extends ReportSubject, Omit<ButtonProps, "onClick" | "children" | "aria-label"> {
  /** The button's accessible name, starting with its visible "Report" (e.g. "Report Luna"). */
  label: string;
}

/** A "Report" button (flag icon and text) that opens the Report dialog for `target`. */
export function ReportButton({ target, subject, label, variant = "ghost", size = "sm", className, ...props }: ReportButtonProps) {
  const { openReport, reportDialog } = useReportDialog();
  return (
    <>
      <Button
        variant={variant}
        size={size}
        aria-label={label}
        onClick={(event) => openReport({ target, subject }, event.currentTarget)}
        className={cn("text-muted-foreground hover:text-foreground", className)}
        {...props}
      >
        <Flag aria-hidden="true" /> Report
      </Button>
      {reportDialog}
    </>
  );
}
