/**
 * One lorebook on /lorebooks/:id: its name and description, its entries in
 * a searchable list (keys, content with a live token count, title, enabled
 * and constant first; SillyTavern's other fields behind "Advanced"), Add,
 * Duplicate and Delete entry, reordered by dragging an entry's handle onto
 * another's place or with Move up / Move down (the keyboard's way; the
 * list's order is exported as SillyTavern's displayIndex), the book's own
 * settings (scan depth, token budget, recursion, case, whole words, group
 * scoring) behind "Book settings", Save, Export, and a "Test" box: a message
 * typed there runs the same activation the room runs
 * (schema/lorebook/activation.ts) and lists which entries fire and why.
 */
import { ArrowDown, ArrowUp, Copy, Download, GripVertical, Plus, Trash2 } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { activate } from "../../../../schema/lorebook/activation.ts";
import { engineBook, type LorebookEntry, type LorebookRecord, LORE_POSITIONS, SELECTIVE_LOGICS } from "../../../../schema/lorebook/book.ts";
import { whyFired } from "../../../../schema/lorebook/why.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { Switch } from "../../../components/ui/switch.tsx";
import { Textarea } from "../../../components/ui/textarea.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { serverErrorIssues, serverErrorText } from "../../../lib/api-client.ts";
import { exportUrl, useSaveLorebook } from "../api/lorebooks.ts";
import { moveItem } from "../lib/reorder.ts";

/** The prompt's estimate (durable-objects/prompt.ts estimateTokens): ceil(characters / 4). */
const tokens = (text: string) => Math.ceil(text.length / 4);
const splitKeys = (text: string) => text.split(",").map((k) => k.trim()).filter(Boolean);
const titleOf = (entry: LorebookEntry, index: number) => entry.comment || entry.keys[0] || `Entry ${index + 1}`;

/** A new entry with SillyTavern's defaults (order 100, probability 100, before the character). */
function newEntry(entries: readonly LorebookEntry[]): LorebookEntry {
  const next = Math.max(-1, ...entries.map((e) => (/^\d+$/.test(e.id) ? Number(e.id) : -1))) + 1;
  return { id: String(next), keys: [], secondaryKeys: [], content: "", comment: "", order: 100, probability: 100, extensions: {} };
}

function NumberField({ label, value, onChange, min = 0, max }: { label: string; value: number | undefined | null; onChange: (n: number | undefined) => void; min?: number; max?: number }) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-xs font-medium">
        {label}
      </label>
      <Input id={id} type="number" inputMode="numeric" min={min} max={max} value={value ?? ""} onChange={(e) => onChange(e.target.value === "" ? undefined : Number(e.target.value))} />
    </div>
  );
}

interface EntryEditorProps {
  entry: LorebookEntry;
  index: number;
  /** How many entries the book has (Move down stops at the last). */
  count: number;
  onChange: (e: LorebookEntry) => void;
  onDuplicate: () => void;
  onDelete: () => void;
  /** Moves this entry to place `to` (0-based) in the book's list. */
  onMove: (to: number) => void;
  /** Moves the entry at place `from` (dragged here) to this entry's place. */
  onMoveHere: (from: number) => void;
}

/** The drag's payload type: the dragged entry's place in the list. */
const DRAG_TYPE = "application/x-fabled-lore-entry";

function EntryEditor({ entry, index, count, onChange, onDuplicate, onDelete, onMove, onMoveHere }: EntryEditorProps) {
  const id = useId();
  const set = (patch: Partial<LorebookEntry>) => onChange({ ...entry, ...patch });
  const title = titleOf(entry, index);
  const [dropping, setDropping] = useState(false);
  return (
    <li
      className={`space-y-3 rounded-lg border p-3 ${dropping ? "border-primary" : "border-border"}`}
      aria-label={title}
      data-entry-index={index}
      // Dropping an entry dragged by its handle here puts it in this one's place.
      onDragOver={(event) => {
        if (!event.dataTransfer.types.includes(DRAG_TYPE)) return;
        event.preventDefault();
        setDropping(true);
      }}
      onDragLeave={() => setDropping(false)}
      onDrop={(event) => {
        setDropping(false);
        const from = Number(event.dataTransfer.getData(DRAG_TYPE));
        if (!event.dataTransfer.types.includes(DRAG_TYPE) || !Number.isInteger(from)) return;
        event.preventDefault();
        onMoveHere(from);
      }}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span
          draggable
          onDragStart={(event) => {
            event.dataTransfer.setData(DRAG_TYPE, String(index));
            event.dataTransfer.effectAllowed = "move";
          }}
          title="Drag to reorder"
          aria-hidden
          className="cursor-grab text-muted-foreground active:cursor-grabbing"
          data-drag-handle
        >
          <GripVertical className="size-4" />
        </span>
        <h3 className="min-w-0 basis-full truncate font-medium sm:flex-1 sm:basis-auto">{title}</h3>
        <Button variant="ghost" size="sm" onClick={() => onMove(index - 1)} disabled={index === 0} aria-label={`Move ${title} up`}>
          <ArrowUp aria-hidden />
        </Button>
        <Button variant="ghost" size="sm" onClick={() => onMove(index + 1)} disabled={index === count - 1} aria-label={`Move ${title} down`}>
          <ArrowDown aria-hidden />
        </Button>
        <label className="flex items-center gap-2 text-sm">
          <Switch checked={entry.disable !== true} onCheckedChange={(on) => set({ disable: !on })} aria-label={`${title}: enabled`} /> Enabled
        </label>
        <label className="flex items-center gap-2 text-sm">
          <Switch checked={entry.constant === true} onCheckedChange={(on) => set({ constant: on })} aria-label={`${title}: constant`} /> Constant
        </label>
        <Button variant="ghost" size="sm" onClick={onDuplicate} aria-label={`Duplicate ${title}`}>
          <Copy aria-hidden />
        </Button>
        <Button variant="ghost" size="sm" onClick={onDelete} aria-label={`Delete ${title}`}>
          <Trash2 aria-hidden />
        </Button>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="space-y-1">
          <label htmlFor={`${id}-keys`} className="block text-xs font-medium">
            Keys (comma-separated; /regex/flags works)
          </label>
          <Input id={`${id}-keys`} defaultValue={entry.keys.join(", ")} onBlur={(e) => set({ keys: splitKeys(e.target.value) })} />
        </div>
        <div className="space-y-1">
          <label htmlFor={`${id}-comment`} className="block text-xs font-medium">
            Title (never in the prompt)
          </label>
          <Input id={`${id}-comment`} value={entry.comment} onChange={(e) => set({ comment: e.target.value })} />
        </div>
      </div>
      <div className="space-y-1">
        <div className="flex justify-between text-xs">
          <label htmlFor={`${id}-content`} className="font-medium">
            Content
          </label>
          <span className="text-muted-foreground" aria-live="polite">
            {tokens(entry.content)} tokens
          </span>
        </div>
        <Textarea id={`${id}-content`} rows={3} value={entry.content} onChange={(e) => set({ content: e.target.value })} />
      </div>
      <details>
        <summary className="cursor-pointer text-sm font-medium">Advanced</summary>
        <div className="mt-3 grid gap-3 sm:grid-cols-3">
          <div className="space-y-1 sm:col-span-2">
            <label htmlFor={`${id}-secondary`} className="block text-xs font-medium">
              Secondary keys
            </label>
            <Input id={`${id}-secondary`} defaultValue={(entry.secondaryKeys ?? []).join(", ")} onBlur={(e) => set({ secondaryKeys: splitKeys(e.target.value) })} />
          </div>
          <div className="space-y-1">
            <label htmlFor={`${id}-logic`} className="block text-xs font-medium">
              Secondary logic
            </label>
            <select id={`${id}-logic`} className="h-10 w-full rounded-lg border border-border bg-background px-2 text-sm" value={entry.selectiveLogic ?? "AND_ANY"} onChange={(e) => set({ selectiveLogic: e.target.value as LorebookEntry["selectiveLogic"] })}>
              {SELECTIVE_LOGICS.map((logic) => (
                <option key={logic}>{logic}</option>
              ))}
            </select>
          </div>
          <div className="space-y-1">
            <label htmlFor={`${id}-position`} className="block text-xs font-medium">
              Position
            </label>
            <select id={`${id}-position`} className="h-10 w-full rounded-lg border border-border bg-background px-2 text-sm" value={entry.position ?? "before_char"} onChange={(e) => set({ position: e.target.value as LorebookEntry["position"] })}>
              {LORE_POSITIONS.map((position) => (
                <option key={position}>{position}</option>
              ))}
            </select>
          </div>
          <NumberField label="Depth (at_depth)" value={entry.depth} onChange={(depth) => set({ depth })} max={1000} />
          <NumberField label="Order" value={entry.order} onChange={(order) => set({ order })} min={-1_000_000} />
          <NumberField label="Probability (%)" value={entry.probability} onChange={(probability) => set({ probability })} max={100} />
          <NumberField label="Scan depth" value={entry.scanDepth} onChange={(scanDepth) => set({ scanDepth: scanDepth ?? null })} max={1000} />
          <NumberField label="Sticky (messages)" value={entry.sticky} onChange={(sticky) => set({ sticky })} />
          <NumberField label="Cooldown (messages)" value={entry.cooldown} onChange={(cooldown) => set({ cooldown })} />
          <NumberField label="Delay (messages)" value={entry.delay} onChange={(delay) => set({ delay })} />
          <div className="space-y-1">
            <label htmlFor={`${id}-group`} className="block text-xs font-medium">
              Inclusion group
            </label>
            <Input id={`${id}-group`} value={entry.group ?? ""} onChange={(e) => set({ group: e.target.value || undefined })} />
          </div>
          <NumberField label="Group weight" value={entry.groupWeight} onChange={(groupWeight) => set({ groupWeight })} />
        </div>
      </details>
    </li>
  );
}

/** A yes/no book setting as a labelled switch. */
function SettingSwitch({ label, checked, onChange }: { label: string; checked: boolean; onChange: (on: boolean) => void }) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <Switch checked={checked} onCheckedChange={onChange} aria-label={label} /> {label}
    </label>
  );
}

/**
 * The book's own settings, under SillyTavern's World Info names and
 * defaults (an empty field: the default; schema/lorebook/types.ts
 * LorebookSettings): what the engine reads for every entry of this book.
 */
function BookSettings({ settings, onChange }: { settings: LorebookRecord["settings"]; onChange: (next: LorebookRecord["settings"]) => void }) {
  const set = (patch: Partial<LorebookRecord["settings"]>) => onChange({ ...settings, ...patch });
  return (
    <details className="rounded-lg border border-border p-3">
      <summary className="cursor-pointer font-medium">Book settings</summary>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <NumberField label="Scan depth (messages; default 2)" value={settings.scanDepth} onChange={(scanDepth) => set({ scanDepth })} max={1000} />
        <NumberField label="Token budget (tokens)" value={settings.tokenBudget} onChange={(tokenBudget) => set({ tokenBudget })} min={1} max={1_000_000} />
        <NumberField label="Max recursion steps (0: no limit)" value={settings.maxRecursionSteps} onChange={(maxRecursionSteps) => set({ maxRecursionSteps })} max={100} />
        <div className="flex flex-col justify-end gap-2">
          <SettingSwitch label="Recursive scan" checked={settings.recursive === true} onChange={(recursive) => set({ recursive })} />
          <SettingSwitch label="Case-sensitive keys" checked={settings.caseSensitive === true} onChange={(caseSensitive) => set({ caseSensitive })} />
          <SettingSwitch label="Match whole words" checked={settings.matchWholeWords === true} onChange={(matchWholeWords) => set({ matchWholeWords })} />
          <SettingSwitch label="Use group scoring" checked={settings.useGroupScoring === true} onChange={(useGroupScoring) => set({ useGroupScoring })} />
        </div>
      </div>
    </details>
  );
}

/** The "Test" box: the engine on one typed message, with the book as it is on screen. */
function TestBox({ book }: { book: { id: string; entries: LorebookEntry[]; settings: LorebookRecord["settings"] } }) {
  const [message, setMessage] = useState("");
  // One engine book per version of the book: the engine compiles its keys once per object.
  const engine = useMemo(() => engineBook(book), [book]);
  const result = useMemo(
    () => (message.trim() ? activate(engine, { messages: [{ text: message, name: "You", isUser: true }], countTokens: tokens, seed: "test" }).entries : []),
    [engine, message],
  );
  const byId = new Map(book.entries.map((entry, index) => [entry.id, titleOf(entry, index)]));
  return (
    <section aria-labelledby="lore-test-heading" className="space-y-2 rounded-lg border border-border p-3">
      <h2 id="lore-test-heading" className="font-medium">
        Test
      </h2>
      <label htmlFor="lore-test" className="block text-sm text-muted-foreground">
        Type a message to see which entries fire and why.
      </label>
      <Textarea id="lore-test" rows={2} value={message} onChange={(e) => setMessage(e.target.value)} />
      <ul aria-label="Entries that fire" className="space-y-1 text-sm">
        {result.map((entry) => (
          <li key={entry.entryId}>
            {byId.get(entry.entryId) ?? entry.entryId} — <span className="text-muted-foreground">{whyFired(entry)}</span>
          </li>
        ))}
      </ul>
      {message.trim() && result.length === 0 ? <p className="text-sm text-muted-foreground">No entry fires.</p> : null}
    </section>
  );
}

export function LorebookEditor({ book }: { book: LorebookRecord }) {
  const [name, setName] = useState(book.name);
  const [description, setDescription] = useState(book.description);
  const [entries, setEntries] = useState<LorebookEntry[]>(book.entries);
  const [settings, setSettings] = useState<LorebookRecord["settings"]>(book.settings);
  const [search, setSearch] = useState("");
  const save = useSaveLorebook(book.id);
  const shown = entries
    .map((entry, index) => ({ entry, index }))
    .filter(({ entry }) => !search.trim() || [entry.comment, entry.content, ...entry.keys].some((text) => text.toLowerCase().includes(search.trim().toLowerCase())));
  const onSave = () =>
    save.mutate(
      { name, description, entries, settings },
      {
        onSuccess: () => toast({ title: "Lorebook saved" }),
        onError: (error) => {
          const issue = serverErrorIssues(error)[0];
          toast({ title: "Could not save the lorebook", description: issue ? `${issue.path}: ${issue.message}` : (serverErrorText(error) ?? "Please try again."), variant: "destructive" });
        },
      },
    );
  const testBook = useMemo(() => ({ id: book.id, entries, settings }), [book.id, settings, entries]);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-0 flex-1 space-y-1">
          <label htmlFor="lorebook-name" className="block text-sm font-medium">
            Name
          </label>
          <Input id="lorebook-name" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />
        </div>
        <Button variant="outline" asChild>
          <a href={exportUrl(book.id)} download>
            <Download aria-hidden /> Export
          </a>
        </Button>
        <Button onClick={onSave} disabled={save.isPending}>
          Save
        </Button>
      </div>
      <div className="space-y-1">
        <label htmlFor="lorebook-description" className="block text-sm font-medium">
          Description
        </label>
        <Textarea id="lorebook-description" rows={2} value={description} onChange={(e) => setDescription(e.target.value)} maxLength={2000} />
      </div>
      <BookSettings settings={settings} onChange={setSettings} />
      <TestBox book={testBook} />
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="flex-1 text-lg font-semibold">Entries ({entries.length})</h2>
        <Input aria-label="Search entries" placeholder="Search entries" className="w-full sm:w-60" value={search} onChange={(e) => setSearch(e.target.value)} />
        <Button variant="outline" onClick={() => setEntries([...entries, newEntry(entries)])}>
          <Plus aria-hidden /> Add entry
        </Button>
      </div>
      <ul className="space-y-3">
        {shown.map(({ entry, index }) => (
          <EntryEditor
            key={entry.id}
            entry={entry}
            index={index}
            onChange={(next) => setEntries(entries.map((e, i) => (i === index ? next : e)))}
            onDuplicate={() => setEntries([...entries.slice(0, index + 1), { ...entry, id: newEntry(entries).id }, ...entries.slice(index + 1)])}
            onDelete={() => setEntries(entries.filter((_, i) => i !== index))}
            count={entries.length}
            onMove={(to) => setEntries(moveItem(entries, index, to))}
            onMoveHere={(from) => setEntries(moveItem(entries, from, index))}
          />
        ))}
      </ul>
    </div>
  );
}
