/**
 * "Download card": the character as a V3 Character Card, as a PNG (the card
 * inside the picture, readable by SillyTavern and other front ends) or as
 * JSON (DESIGN.md "Character cards"). Plain links: the server names the file.
 */
import { Download, FileJson, Image } from "lucide-react";
import { Button } from "../../../components/ui/button.tsx";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from "../../../components/ui/dropdown-menu.tsx";
import { IconTooltip } from "../../../components/ui/tooltip.tsx";

/** Where a character's card downloads from, as PNG or JSON. */
export function cardDownloadUrl(characterId: number, format: "png" | "json"): string {
  return `/api/characters/${characterId}/card.${format}`;
}

interface DownloadCardMenuProps {
  character: { id: number; name: string };
  /** "button": a labelled button (character page); "icon": an icon button with a tooltip (My Characters cards). */
  variant?: "button" | "icon";
  /** The icon's tooltip is inside a surrounding TooltipProvider (a toolbar). */
  groupedTooltip?: boolean;
  className?: string;
}

export function DownloadCardMenu({ character, variant = "button", groupedTooltip = false, className }: DownloadCardMenuProps) {
  return (
    <DropdownMenu modal={false}>
      {variant === "icon" ? (
        <IconTooltip grouped={groupedTooltip} label="Download card">
          <DropdownMenuTrigger asChild>
            <Button variant="ghost" size="icon" aria-label={`Download card of ${character.name}`} className={className}>
              <Download aria-hidden="true" />
            </Button>
          </DropdownMenuTrigger>
        </IconTooltip>
      ) : (
        <DropdownMenuTrigger asChild>
          <Button variant="outline" size="lg" className={className}>
            <Download aria-hidden="true" /> Download card
          </Button>
        </DropdownMenuTrigger>
      )}
      <DropdownMenuContent align="end" className="w-64">
        <DropdownMenuLabel>Character card (V3)</DropdownMenuLabel>
        <DropdownMenuItem asChild>
          <a href={cardDownloadUrl(character.id, "png")} download>
            <Image aria-hidden="true" /> PNG card (picture with the card inside)
          </a>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <a href={cardDownloadUrl(character.id, "json")} download>
            <FileJson aria-hidden="true" /> JSON card
          </a>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
