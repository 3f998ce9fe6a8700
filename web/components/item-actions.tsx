/**
 * The buttons of a row in a settings list the person owns (their personas,
 * their model connections): "Make Default" for every row but the default,
 * and Edit and Delete as icon buttons with tooltips, each named after the
 * row ("Edit {name}", "Delete {name}", "Make Default: {name}").
 */
import { Pencil, Star, Trash2 } from "lucide-react";
import { Button } from "./ui/button.tsx";
import { IconTooltip, TooltipProvider } from "./ui/tooltip.tsx";

/** "Make Default" for the row `name`; `busy` while a change of default is being saved. */
export function MakeDefaultButton({ name, busy, onClick, className }: { name: string; busy: boolean; onClick: () => void; className?: string }) {
  return (
    <Button variant="secondary" size="sm" onClick={onClick} disabled={busy} aria-label={`Make Default: ${name}`} className={className}>
      <Star aria-hidden="true" /> Make Default
    </Button>
  );
}

/** Edit and Delete (in red) for the row `name`, in one tooltip group. */
export function EditDeleteButtons({ name, onEdit, onDelete }: { name: string; onEdit: () => void; onDelete: () => void }) {
  return (
    <TooltipProvider>
      <IconTooltip grouped label="Edit">
        <Button variant="ghost" size="icon" onClick={onEdit} aria-label={`Edit ${name}`}>
          <Pencil aria-hidden="true" />
        </Button>
      </IconTooltip>
      <IconTooltip grouped label="Delete">
        <Button variant="ghost" size="icon" onClick={onDelete} aria-label={`Delete ${name}`} className="text-red-300 hover:bg-red-950/60 hover:text-red-200">
          <Trash2 aria-hidden="true" />
        </Button>
      </IconTooltip>
    </TooltipProvider>
  );
}
