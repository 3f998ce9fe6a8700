/**
 * One persona in the Personas list: its picture (or initial), name, a
 * "Default" badge, the start of its description, and Edit, Make default and
 * Delete.
 */
import { Pencil, Star, Trash2 } from "lucide-react";
import type { Persona } from "../../../../schema/api.ts";
import { Avatar } from "../../../components/ui/avatar.tsx";
import { Badge } from "../../../components/ui/badge.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { IconTooltip, TooltipProvider } from "../../../components/ui/tooltip.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { personaInitial } from "../lib/persona-form.ts";

interface PersonaItemProps {
  persona: Persona;
  onEdit: () => void;
  onMakeDefault: () => void;
  onDelete: () => void;
  /** While a default change is being saved: no second one meanwhile. */
  busy: boolean;
}

export function PersonaItem({ persona, onEdit, onMakeDefault, onDelete, busy }: PersonaItemProps) {
  // Narrow screens: picture and name, the description, then a row of actions
  // (Make Default left, the icon buttons right). From `sm`: actions on the right.
  return (
    <li className="grid grid-cols-[auto_minmax(0,1fr)_auto] items-start gap-x-3 gap-y-1 rounded-xl border border-border bg-surface/40 p-4 sm:grid-cols-[auto_minmax(0,1fr)_auto_auto]">
      <Avatar
        src={persona.avatarUrl}
        fallback={personaInitial(persona.name)}
        className="col-start-1 row-span-2 row-start-1 size-12"
        fallbackClassName="text-lg"
      />
      <div className="col-span-2 col-start-2 row-start-1 flex flex-wrap items-center gap-x-2 gap-y-1 sm:col-span-1 sm:min-h-10">
        <h3 className="min-w-0 font-semibold break-words">{persona.name}</h3>
        {persona.isDefault && (
          <Badge>
            <Star aria-hidden="true" className="fill-current" /> Default
          </Badge>
        )}
      </div>
      <div className="col-span-2 col-start-2 row-start-2 sm:col-span-1">
        {persona.description ? (
          <p className="line-clamp-2 text-sm leading-snug break-words text-foreground/80">{persona.description}</p>
        ) : (
          <p className="text-sm text-muted-foreground italic">No description</p>
        )}
      </div>
      {!persona.isDefault && (
        <Button
          variant="secondary"
          size="sm"
          onClick={onMakeDefault}
          disabled={busy}
          aria-label={`Make Default: ${persona.name}`}
          className="col-span-2 col-start-1 row-start-3 mt-2 self-center justify-self-start sm:col-span-1 sm:self-start sm:col-start-3 sm:row-span-2 sm:row-start-1 sm:mt-1"
        >
          <Star aria-hidden="true" /> Make Default
        </Button>
      )}
      <div className="col-start-3 row-start-3 mt-2 flex items-center sm:col-start-4 sm:row-span-2 sm:row-start-1 sm:mt-0">
        <TooltipProvider>
          <IconTooltip grouped label="Edit">
            <Button variant="ghost" size="icon" onClick={onEdit} aria-label={`Edit ${persona.name}`}>
              <Pencil aria-hidden="true" />
            </Button>
          </IconTooltip>
          <IconTooltip grouped label="Delete">
            <Button
              variant="ghost"
              size="icon"
              onClick={onDelete}
              aria-label={`Delete ${persona.name}`}
              className="text-red-300 hover:bg-red-950/60 hover:text-red-200"
            >
              <Trash2 aria-hidden="true" />
            </Button>
          </IconTooltip>
        </TooltipProvider>
      </div>
    </li>
  );
}

export function PersonaItemSkeleton() {
  return (
    <div aria-hidden="true" className="flex gap-3 rounded-xl border border-border p-4">
      <Skeleton className="size-12 rounded-full" />
      <div className="flex-1 space-y-2 pt-1">
        <Skeleton className="h-4 w-1/3" />
        <Skeleton className="h-3 w-4/5" />
      </div>
    </div>
  );
}
