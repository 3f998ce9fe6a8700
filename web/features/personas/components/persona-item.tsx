/**
 * One persona in the Personas list: its picture (or initial), name, a
 * "Default" badge, the start of its description, and Edit, Make default and
 * Delete.
 */
import { Star } from "lucide-react";
import type { Persona } from "../../../../schema/api.ts";
import { EditDeleteButtons, MakeDefaultButton } from "../../../components/item-actions.tsx";
import { Avatar } from "../../../components/ui/avatar.tsx";
import { Badge } from "../../../components/ui/badge.tsx";
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
        <MakeDefaultButton
          name={persona.name}
          busy={busy}
          onClick={onMakeDefault}
          className="col-span-2 col-start-1 row-start-3 mt-2 self-center justify-self-start sm:col-span-1 sm:self-start sm:col-start-3 sm:row-span-2 sm:row-start-1 sm:mt-1"
        />
      )}
      <div className="col-start-3 row-start-3 mt-2 flex items-center sm:col-start-4 sm:row-span-2 sm:row-start-1 sm:mt-0">
        <EditDeleteButtons name={persona.name} onEdit={onEdit} onDelete={onDelete} />
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
