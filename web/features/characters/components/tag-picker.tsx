/**
 * Tags on the Create/Edit Character form (SPEC.md §2: "popular tags as
 * selectable chips"): the chosen tags with remove buttons, a box to add a new
 * one, and the popular tags as toggles. Rules in lib/character-tags.ts.
 */
import { Check, Plus, X } from "lucide-react";
import { type KeyboardEvent, useState } from "react";
import type { Tag } from "../../../../schema/api.ts";
import { Button } from "../../../components/ui/button.tsx";
import { IconTooltip } from "../../../components/ui/tooltip.tsx";
import { FormField } from "../../../components/ui/form-field.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { cn } from "../../../lib/utils.ts";
import { MAX_TAGS, type TagChange, addTag, removeTag, toggleTag } from "../lib/character-tags.ts";

/** Popular tags shown before "Show all". */
const POPULAR_SHOWN = 24;

interface TagPickerProps {
  value: string[];
  onChange: (tags: string[]) => void;
  popularTags: Tag[];
  popularLoading: boolean;
  /** The form's message for the list (from the shared schema or the server). */
  error?: string;
}

export function TagPicker({ value, onChange, popularTags, popularLoading, error }: TagPickerProps) {
  const [draft, setDraft] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  const [showAll, setShowAll] = useState(false);

  const apply = (change: TagChange) => {
    if (!change.ok) {
      setMessage(change.error);
      return false;
    }
    setMessage(null);
    onChange(change.tags);
    return true;
  };

  const addDraft = () => {
    if (draft.trim() === "") return;
    if (apply(addTag(value, draft))) setDraft("");
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter or a comma adds the tag instead of submitting the form.
    if (event.key === "Enter" || event.key === ",") {
      event.preventDefault();
      addDraft();
    }
  };

  const popular = showAll ? popularTags : popularTags.slice(0, POPULAR_SHOWN);

  return (
    <div className="space-y-4">
      <FormField
        id="character-tag-input"
        label="Tags"
        aside={
          <span className="text-xs text-muted-foreground tabular-nums" aria-live="polite">
            {value.length}/{MAX_TAGS}
          </span>
        }
        hint={`Tags help people find your character. Pick popular ones below or add your own: 2–24 characters, lower case, up to ${MAX_TAGS} tags.`}
        error={message ?? error}
      >
        {(describedBy) => (
          <div className="flex gap-2">
            <Input
              id="character-tag-input"
              placeholder="Add a tag, e.g. fantasy"
              autoComplete="off"
              enterKeyHint="enter"
              value={draft}
              onChange={(e) => {
                setDraft(e.target.value);
                setMessage(null);
              }}
              onKeyDown={onKeyDown}
              aria-invalid={message || error ? true : undefined}
              aria-describedby={describedBy}
            />
            <Button variant="secondary" onClick={addDraft} disabled={draft.trim() === ""}>
              <Plus aria-hidden="true" /> Add
            </Button>
          </div>
        )}
      </FormField>

      {value.length > 0 && (
        <ul aria-label="Chosen tags" className="flex flex-wrap gap-1.5">
          {value.map((tag) => (
            <li key={tag}>
              <span className="inline-flex items-center gap-1 rounded-full bg-primary-strong py-1 pr-1 pl-3 text-sm font-medium text-white">
                {tag}
                <IconTooltip label={`Remove tag ${tag}`}>
                  <button
                    type="button"
                    aria-label={`Remove tag ${tag}`}
                    onClick={() => {
                      setMessage(null);
                      onChange(removeTag(value, tag));
                    }}
                    className="cursor-pointer rounded-full p-0.5 hover:bg-white/20 focus-visible:outline-2 focus-visible:outline-white"
                  >
                    <X aria-hidden="true" className="size-3.5" />
                  </button>
                </IconTooltip>
              </span>
            </li>
          ))}
        </ul>
      )}

      <div className="space-y-2">
        <p id="popular-tags-label" className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">
          Popular tags
        </p>
        {popularLoading ? (
          <div className="flex flex-wrap gap-1.5" aria-hidden="true">
            {Array.from({ length: 12 }, (_, i) => (
              <Skeleton key={i} className="h-7 w-20 rounded-full" />
            ))}
          </div>
        ) : popularTags.length === 0 ? (
          <p className="text-sm text-muted-foreground">No popular tags yet. Add your own above.</p>
        ) : (
          <ul aria-labelledby="popular-tags-label" className="flex flex-wrap gap-1.5">
            {popular.map((tag) => {
              const selected = value.includes(tag.name);
              return (
                <li key={tag.id}>
                  <button
                    type="button"
                    aria-pressed={selected}
                    onClick={() => apply(toggleTag(value, tag.name))}
                    className={cn(
                      "inline-flex cursor-pointer items-center gap-1 rounded-full border px-3 py-1 text-sm transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring",
                      selected
                        ? "border-primary bg-primary/20 text-violet-100"
                        : "border-border bg-surface text-foreground/85 hover:border-primary/50 hover:text-foreground",
                    )}
                  >
                    {selected && <Check aria-hidden="true" className="size-3.5 text-pink-300" />}
                    {tag.name}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        {popularTags.length > POPULAR_SHOWN && (
          <button
            type="button"
            aria-expanded={showAll}
            onClick={() => setShowAll((v) => !v)}
            className="cursor-pointer rounded text-sm font-medium text-violet-300 hover:text-violet-200 focus-visible:outline-2 focus-visible:outline-ring"
          >
            {showAll ? "Show fewer tags" : `Show all ${popularTags.length} tags`}
          </button>
        )}
      </div>
    </div>
  );
}
