/**
 * The card's lorebook (`character_book`): entries that join the prompt when
 * one of their keys comes up in the chat (or always, when constant). Each
 * entry shows its keys, secondary keys, content, whether it is enabled or
 * always on, and its insertion order; an imported entry's other fields are
 * kept as they were (schema/lorebook.ts).
 */
import { Plus, Trash2 } from "lucide-react";
import { newLoreEntry } from "../../../../schema/lorebook.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { Switch } from "../../../components/ui/switch.tsx";
import { Textarea } from "../../../components/ui/textarea.tsx";
import type { LoreRow } from "../lib/character-form.ts";

interface LorebookFieldProps {
  value: LoreRow[];
  onChange: (rows: LoreRow[]) => void;
  /** A message about the whole lorebook (e.g. too large). */
  error?: string;
}

/** Longest lorebook, in entries, the form lets one add (imported books may hold more). */
const MAX_NEW_ENTRIES = 200;

export function LorebookField({ value, onChange, error }: LorebookFieldProps) {
  const update = (index: number, change: Partial<LoreRow>) => onChange(value.map((row, i) => (i === index ? { ...row, ...change } : row)));
  const add = () => {
    const entry = newLoreEntry();
    onChange([...value, { ...entry, keys: "", secondaryKeys: "" }]);
  };
  return (
    <fieldset className="space-y-3" aria-describedby={error ? "lorebook-hint lorebook-error" : "lorebook-hint"}>
      <legend className="text-sm font-medium">Lorebook (Optional)</legend>
      <p id="lorebook-hint" className="text-xs leading-relaxed text-muted-foreground">
        Facts about the world that join the prompt only when one of their keys comes up in the chat, or always when an entry is
        always on. Exported with the character card.
      </p>
      {value.length > 0 && (
        <ol className="space-y-4">
          {value.map((row, index) => {
            const id = `lorebook-entry-${index}`;
            const number = index + 1;
            return (
              <li key={index} className="space-y-3 rounded-xl border border-border bg-surface/40 p-4" aria-labelledby={`${id}-title`}>
                <div className="flex items-center justify-between gap-2">
                  <h3 id={`${id}-title`} className="text-sm font-semibold">
                    Entry {number}
                  </h3>
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Remove lorebook entry ${number}`}
                    onClick={() => onChange(value.filter((_, i) => i !== index))}
                    className="text-muted-foreground hover:text-red-300"
                  >
                    <Trash2 aria-hidden="true" /> Remove
                  </Button>
                </div>
                <div className="grid gap-3 sm:grid-cols-2">
                  <div className="space-y-1.5">
                    <label htmlFor={`${id}-keys`} className="text-xs font-medium text-muted-foreground">
                      Keys of entry {number}
                    </label>
                    <Input
                      id={`${id}-keys`}
                      value={row.keys}
                      placeholder="moon, Moon Queen"
                      aria-describedby="lorebook-keys-hint"
                      onChange={(e) => update(index, { keys: e.target.value })}
                    />
                  </div>
                  <div className="space-y-1.5">
                    <label htmlFor={`${id}-secondary`} className="text-xs font-medium text-muted-foreground">
                      Secondary keys of entry {number} (Optional)
                    </label>
                    <Input
                      id={`${id}-secondary`}
                      value={row.secondaryKeys}
                      placeholder="castle"
                      aria-describedby="lorebook-keys-hint"
                      onChange={(e) => update(index, { secondaryKeys: e.target.value })}
                    />
                  </div>
                </div>
                <div className="space-y-1.5">
                  <label htmlFor={`${id}-content`} className="text-xs font-medium text-muted-foreground">
                    Content of entry {number}
                  </label>
                  <Textarea
                    id={`${id}-content`}
                    value={row.content}
                    rows={3}
                    placeholder="The Moon Queen rules the night court from a castle of glass."
                    onChange={(e) => update(index, { content: e.target.value })}
                  />
                </div>
                <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
                  <div className="flex items-center gap-2 text-sm">
                    <Switch id={`${id}-enabled`} checked={row.enabled} onCheckedChange={(enabled) => update(index, { enabled })} />
                    <label htmlFor={`${id}-enabled`}>Enabled</label>
                  </div>
                  <div className="flex items-center gap-2 text-sm">
                    <Switch id={`${id}-constant`} checked={row.constant} onCheckedChange={(constant) => update(index, { constant })} />
                    <label htmlFor={`${id}-constant`}>Always on</label>
                  </div>
                  <div className="flex items-center gap-2 text-sm">
                    <label htmlFor={`${id}-order`}>Insertion order</label>
                    <Input
                      id={`${id}-order`}
                      type="number"
                      inputMode="numeric"
                      className="w-24"
                      value={Number.isFinite(row.insertionOrder) ? String(row.insertionOrder) : ""}
                      onChange={(e) => update(index, { insertionOrder: e.target.value === "" ? 0 : Number(e.target.value) })}
                    />
                  </div>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      <p id="lorebook-keys-hint" className="sr-only">
        Separate keys with commas.
      </p>
      {value.length > 0 && (
        <p className="text-xs text-muted-foreground">
          Keys are separated by commas. With secondary keys, one of them must come up too. Lower insertion orders come first.
        </p>
      )}
      {error && (
        <p id="lorebook-error" className="text-sm font-medium text-red-400">
          {error}
        </p>
      )}
      <Button variant="outline" size="sm" onClick={add} disabled={value.length >= MAX_NEW_ENTRIES}>
        <Plus aria-hidden="true" /> Add lorebook entry
      </Button>
    </fieldset>
  );
}
