import type { ReactNode } from "react";
import { cn } from "../../lib/utils.ts";

interface FormFieldProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  /** A live line under the input (e.g. a username's availability). */
  status?: ReactNode;
  /** Beside the label, right-aligned (e.g. a character counter). */
  aside?: ReactNode;
  className?: string;
  /** Renders the control, given the ids it should name in `aria-describedby`. */
  children: (describedBy: string | undefined) => ReactNode;
}

/**
 * A labelled form control with its hint and validation message; the control
 * is described by the message first, then the status, then the hint.
 */
export function FormField({ id, label, hint, error, status, aside, className, children }: FormFieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const statusId = status ? `${id}-status` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, statusId, hintId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("space-y-2", className)}>
      <div className="flex items-baseline justify-between gap-3">
        <label htmlFor={id} className="block text-sm font-medium">
          {label}
        </label>
        {aside}
      </div>
      {children(describedBy)}
      {status && (
        <div id={statusId} aria-live="polite">
          {status}
        </div>
      )}
      {hint && (
        <p id={hintId} className="text-xs leading-relaxed text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm font-medium text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
