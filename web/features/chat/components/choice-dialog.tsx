/**
 * A chat setting chosen from a short list, in a dialog that fits a phone's
 * width (the chat header's "Model" and "Persona"): one radio per option with
 * its name, a line of detail and an optional avatar; the choice shows at once
 * and is saved by `pick`; on success a toast says what changed and the
 * dialog closes, on failure the radio goes back and a toast says why. Open
 * while mounted.
 */
import type { UseMutationResult } from "@tanstack/react-query";
import { LoaderCircle, Settings2 } from "lucide-react";
import { type ReactNode, useState } from "react";
import { Link } from "react-router";
import { Button } from "../../../components/ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../../../components/ui/dialog.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { isUnauthorizedError, serverErrorText } from "../../../lib/api-client.ts";
import { notifyUnauthorized } from "../../../lib/unauthorized.ts";
import { cn } from "../../../lib/utils.ts";

/** The radio value of the "Default" option every picker starts with (the ids it stands beside are UUIDs). */
export const DEFAULT_CHOICE = "default";

export interface ChoiceOption {
  /** DEFAULT_CHOICE or the id of what is picked. */
  value: string;
  name: string;
  /** One line under the name (truncated); left out when empty. */
  detail?: string | null;
  /** Shown before the name, hidden from assistive technology (the name says it). */
  avatar?: ReactNode;
}

interface ChoiceDialogProps {
  title: string;
  description: string;
  /** The radio group's name for screen readers. */
  legend: string;
  options: ChoiceOption[];
  /** The option in effect now. */
  current: string;
  /** Saves a choice: the id, or null for DEFAULT_CHOICE. */
  pick: UseMutationResult<unknown, Error, string | null>;
  /** The toast after a choice is saved. */
  saved: (value: string) => { title: string; description: string };
  /** What failed, in "Failed to … Please try again." */
  failed: string;
  /** The list's own query: still loading (for a signed-in person), or failed. */
  list: { loading: boolean; error: boolean; loadingText: string; errorText: string };
  /** Where the person manages the list. */
  manage: { to: string; label: string };
  onClose: () => void;
}

export function ChoiceDialog({ title, description, legend, options, current, pick, saved, failed, list, manage, onClose }: ChoiceDialogProps) {
  // The choice shows at once (a controlled radio must not snap back while the request runs).
  const [choice, setChoice] = useState<string | null>(null);
  const chosen = choice ?? current;

  const onPick = (value: string) => {
    if (value === current || pick.isPending) return;
    setChoice(value);
    pick.mutate(value === DEFAULT_CHOICE ? null : value, {
      onSuccess: () => {
        toast(saved(value));
        onClose();
      },
      onError: (error) => {
        setChoice(null);
        if (isUnauthorizedError(error)) notifyUnauthorized("view this conversation");
        else toast({ title: "Error", description: serverErrorText(error) ?? `Failed to ${failed}. Please try again.`, variant: "destructive" });
      },
    });
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-md overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <fieldset aria-busy={pick.isPending || list.loading} className="min-w-0 space-y-2">
          <legend className="sr-only">{legend}</legend>
          {options.map((option) => (
            <label
              key={option.value}
              className={cn(
                "flex cursor-pointer items-center gap-3 rounded-xl border border-border bg-surface/40 p-3 transition-colors hover:bg-surface",
                "has-[:checked]:border-primary/70 has-[:checked]:bg-primary/10 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring",
                pick.isPending && "cursor-wait",
              )}
            >
              <input
                type="radio"
                name={title}
                value={option.value}
                checked={chosen === option.value}
                disabled={pick.isPending}
                onChange={() => onPick(option.value)}
                className="size-4 shrink-0 accent-pink-500 focus:outline-none"
              />
              {option.avatar && (
                <span aria-hidden="true" className="contents">
                  {option.avatar}
                </span>
              )}
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm font-medium">{option.name}</span>
                {option.detail && <span className="block truncate text-xs text-muted-foreground">{option.detail}</span>}
              </span>
              {pick.isPending && chosen === option.value && <LoaderCircle aria-hidden="true" className="size-4 shrink-0 animate-spin text-muted-foreground" />}
            </label>
          ))}
          {list.loading && <p className="px-1 text-xs text-muted-foreground">{list.loadingText}</p>}
          {list.error && <p className="px-1 text-xs text-red-300">{list.errorText}</p>}
        </fieldset>
        <DialogFooter className="sm:justify-between">
          <Button asChild variant="ghost">
            <Link to={manage.to}>
              <Settings2 aria-hidden="true" /> {manage.label}
            </Link>
          </Button>
          <DialogClose asChild>
            <Button variant="outline">Close</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
