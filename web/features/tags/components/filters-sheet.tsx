/**
 * The Filters sheet below 768 px, where the tag sidebar is hidden: the same
 * tag controls (TagFilterPanel) and the NSFW switch, in a Radix dialog that
 * rises from the bottom of the screen. Loaded on first use (Home's entry
 * bundle stays within docs/decisions/0004-first-visit-budget.md).
 */
import { X } from "lucide-react";
import type { RefObject } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from "../../../components/ui/dialog.tsx";
import { NsfwSwitch } from "../../../components/nsfw-switch.tsx";
import { TagFilterPanel, type TagFilterControls } from "./tag-filter-panel.tsx";

export interface FiltersSheetProps extends TagFilterControls {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  showNsfw: boolean;
  onShowNsfwChange: (showNsfw: boolean) => void;
  /** The list's current "{n} results found" count, or null while it loads. */
  total: number | null;
  /** The button that opened the sheet: focus goes back to it on closing (the sheet has no Radix trigger). */
  opener: RefObject<HTMLElement | null>;
}

export function FiltersSheet({ open, onOpenChange, showNsfw, onShowNsfwChange, total, opener, ...controls }: FiltersSheetProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          opener.current?.focus();
        }}
        className="top-auto bottom-0 left-0 flex max-h-[85dvh] w-full max-w-none translate-x-0 translate-y-0 flex-col gap-0 rounded-none rounded-t-2xl p-0">
        <div className="border-b border-border px-5 pt-4 pb-3">
          <div className="flex items-start justify-between gap-4">
            <div>
              <DialogTitle>Filters</DialogTitle>
              <DialogDescription className="mt-0.5">Choose tags to show or hide.</DialogDescription>
            </div>
            <DialogClose asChild>
              <Button variant="ghost" size="icon" aria-label="Close filters" title="Close filters" className="-mt-1 -mr-2 size-9">
                <X aria-hidden="true" />
              </Button>
            </DialogClose>
          </div>
          <NsfwSwitch id="nsfw-toggle-sheet" checked={showNsfw} onCheckedChange={onShowNsfwChange} className="mt-3" />
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4 [scrollbar-width:thin]">
          <TagFilterPanel {...controls} />
        </div>
        <div className="border-t border-border px-5 py-3">
          <DialogClose asChild>
            <Button variant="gradient" className="w-full">
              {total === null ? "Show results" : `Show ${total} results`}
            </Button>
          </DialogClose>
        </div>
      </DialogContent>
    </Dialog>
  );
}
