/**
 * The person's lorebooks on /lorebooks: each book with its entry count (a
 * character's own book says whose), "New lorebook", "Import" (a SillyTavern
 * World Info file, a card's `character_book` or a whole card as JSON), and
 * per book Export (SillyTavern World Info) and Delete (after a confirmation).
 */
import { BookOpen, Download, Plus, Trash2, Upload } from "lucide-react";
import { useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import type { LorebookSummary } from "../../../../schema/lorebook/book.ts";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { ListEmpty, ListLoadFailed } from "../../../components/list-states.tsx";
import { Badge } from "../../../components/ui/badge.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { serverErrorText } from "../../../lib/api-client.ts";
import { exportUrl, useCreateLorebook, useDeleteLorebook, useImportLorebook, useLorebooks } from "../api/lorebooks.ts";

const plural = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "entry" : "entries"}`;

export function LorebooksSection() {
  const lorebooks = useLorebooks();
  const create = useCreateLorebook();
  const importBook = useImportLorebook();
  const remove = useDeleteLorebook();
  const navigate = useNavigate();
  const file = useRef<HTMLInputElement>(null);
  const [deleting, setDeleting] = useState<LorebookSummary | null>(null);

  const failed = (what: string) => (error: unknown) => toast({ title: what, description: serverErrorText(error) ?? "Please try again.", variant: "destructive" });

  const onNew = () =>
    create.mutate({ name: "New lorebook", entries: [] }, { onSuccess: (book) => book && navigate(`/lorebooks/${book.id}`), onError: failed("Could not create the lorebook") });

  const onFile = async (chosen: File | undefined) => {
    if (!chosen) return;
    const text = await chosen.text();
    const name = chosen.name.replace(/\.json$/i, "");
    importBook.mutate(
      { text, name },
      { onSuccess: (book) => book && toast({ title: `Imported ${book.name}`, description: plural(book.entries.length) }), onError: failed("Could not import that file") },
    );
    if (file.current) file.current.value = "";
  };

  return (
    <section aria-labelledby="lorebooks-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="lorebooks-heading" className="text-2xl font-bold">
          Lorebooks
        </h1>
        <div className="flex gap-2">
          <input ref={file} type="file" accept=".json,application/json" className="sr-only" aria-label="Lorebook file to import" onChange={(e) => void onFile(e.target.files?.[0])} />
          <Button variant="outline" onClick={() => file.current?.click()} disabled={importBook.isPending}>
            <Upload aria-hidden /> Import
          </Button>
          <Button onClick={onNew} disabled={create.isPending}>
            <Plus aria-hidden /> New lorebook
          </Button>
        </div>
      </div>
      <p className="text-sm text-muted-foreground">
        Entries join a chat's prompt when their keys come up, as in SillyTavern's World Info. Import SillyTavern World Info, a card's
        lorebook or a whole card (JSON); a character's own lorebook is here too.
      </p>
      {lorebooks.isPending ? (
        <div className="space-y-2">
          <Skeleton className="h-16" />
          <Skeleton className="h-16" />
        </div>
      ) : lorebooks.isError ? (
        <ListLoadFailed title="Your lorebooks could not be loaded" onRetry={() => void lorebooks.refetch()} />
      ) : lorebooks.data.length === 0 ? (
        <ListEmpty icon={BookOpen} title="No lorebooks yet">
          Make one, or import a SillyTavern World Info file.
        </ListEmpty>
      ) : (
        <ul className="space-y-2">
          {lorebooks.data.map((book) => (
            <li key={book.id} className="flex flex-wrap items-center gap-3 rounded-lg border border-border p-3">
              <div className="min-w-0 flex-1">
                <Link to={`/lorebooks/${book.id}`} className="font-medium hover:underline">
                  {book.name}
                </Link>
                <p className="text-sm text-muted-foreground">
                  {plural(book.entryCount)}
                  {book.description ? ` · ${book.description}` : ""}
                </p>
              </div>
              {book.characterId !== null ? <Badge variant="secondary">A character's own book</Badge> : null}
              <div className="flex gap-1">
                <Button variant="ghost" size="sm" asChild>
                  <a href={exportUrl(book.id)} download aria-label={`Export ${book.name}`}>
                    <Download aria-hidden /> Export
                  </a>
                </Button>
                <Button variant="ghost" size="sm" onClick={() => setDeleting(book)} aria-label={`Delete ${book.name}`}>
                  <Trash2 aria-hidden /> Delete
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={`Delete ${deleting?.name ?? "this lorebook"}?`}
        description={deleting?.characterId != null ? "It is a character's own lorebook: the character loses it too." : "Characters and chats it is attached to lose it."}
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: () => setDeleting(null), onError: failed("Could not delete the lorebook") })}
      />
    </section>
  );
}
