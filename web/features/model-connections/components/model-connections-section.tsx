/**
 * The person's model connections on /settings/models: the list (the
 * default first) with each one's kind, endpoint, model and key hint; "Add
 * Connection"; per connection Edit, Make Default and Delete (after a
 * confirmation). Without connections (or a default) the site's model writes
 * the chats, and the page says so.
 */
import { Cpu, Plus, Star } from "lucide-react";
import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { MAX_MODEL_CONNECTIONS, type ModelConnection } from "../../../../schema/model-connections.ts";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { EditDeleteButtons, MakeDefaultButton } from "../../../components/item-actions.tsx";
import { ListEmpty, ListLoadFailed, ListLoading } from "../../../components/list-states.tsx";
import { Badge } from "../../../components/ui/badge.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Card, CardContent, CardHeader } from "../../../components/ui/card.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { serverErrorText } from "../../../lib/api-client.ts";
import { useModelConnections } from "../../../lib/model-connections-query.ts";
import { useDeleteModelConnection } from "../api/delete-model-connection.ts";
import { useUpdateModelConnection } from "../api/update-model-connection.ts";
import { ConnectionDialog } from "./connection-dialog.tsx";

function ConnectionItem({
  connection,
  onEdit,
  onMakeDefault,
  onDelete,
  busy,
}: {
  connection: ModelConnection;
  onEdit: () => void;
  onMakeDefault: () => void;
  onDelete: () => void;
  busy: boolean;
}) {
  const where = connection.kind === "site" ? "This site's models" : connection.baseUrl;
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-border bg-surface/40 p-4 sm:flex-row sm:items-start">
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="min-w-0 font-semibold break-words">{connection.name}</h3>
          {connection.isDefault && (
            <Badge>
              <Star aria-hidden="true" className="fill-current" /> Default
            </Badge>
          )}
        </div>
        <p className="text-sm break-all text-foreground/80">{connection.model}</p>
        <p className="text-xs break-all text-muted-foreground">
          {where}
          {connection.keyHint && <> · key …{connection.keyHint}</>}
        </p>
      </div>
      <div className="flex items-center justify-between gap-2 sm:justify-end">
        {!connection.isDefault && <MakeDefaultButton name={connection.name} busy={busy} onClick={onMakeDefault} />}
        <div className="ml-auto flex items-center">
          <EditDeleteButtons name={connection.name} onEdit={onEdit} onDelete={onDelete} />
        </div>
      </div>
    </li>
  );
}

export function ModelConnectionsSection() {
  const query = useModelConnections(true);
  const makeDefault = useUpdateModelConnection();
  const remove = useDeleteModelConnection();
  const [editing, setEditing] = useState<ModelConnection | "new" | null>(null);
  const [deleting, setDeleting] = useState<ModelConnection | null>(null);
  const connections = query.data ?? [];
  const atLimit = connections.length >= MAX_MODEL_CONNECTIONS;
  const hasDefault = connections.some((c) => c.isDefault);
  // `?edit=<id>` (or `default`): a chat's "Settings → Models" link opens the connection that failed (issue 41).
  const [searchParams, setSearchParams] = useSearchParams();
  const toEdit = searchParams.get("edit");
  useEffect(() => {
    if (!toEdit || !query.data) return;
    const found = query.data.find((c) => (toEdit === "default" ? c.isDefault : c.id === toEdit));
    if (found) setEditing(found);
    setSearchParams((params) => {
      params.delete("edit");
      return params;
    }, { replace: true });
  }, [toEdit, query.data, setSearchParams]);

  const onMakeDefault = (connection: ModelConnection) =>
    makeDefault.mutate(
      { id: connection.id, input: { isDefault: true } },
      {
        onSuccess: () => toast({ title: "Default model changed", description: `${connection.name} now writes your chats.` }),
        onError: (error) => toast({ title: "Error", description: serverErrorText(error) ?? "Failed to change the default", variant: "destructive" }),
      },
    );

  const onConfirmDelete = () => {
    if (!deleting) return;
    const { id, name } = deleting;
    remove.mutate(id, {
      onSuccess: () => {
        setDeleting(null);
        toast({ title: "Connection deleted", description: `${name} and its key have been deleted.` });
      },
      onError: (error) => toast({ title: "Error", description: serverErrorText(error) ?? "Failed to delete the connection", variant: "destructive" }),
    });
  };

  let body;
  if (query.isPending) {
    body = <ListLoading label="Loading your model connections" rowClassName="h-20 rounded-xl" />;
  } else if (query.isError) {
    body = <ListLoadFailed title="Failed to load your model connections" onRetry={() => void query.refetch()} />;
  } else if (connections.length === 0) {
    body = (
      <ListEmpty icon={Cpu} title="No connections yet">
        This site's model writes your chats. Add your own — OpenRouter, OpenAI, or Ollama and llama.cpp on your computer — to choose the
        model and how it writes.
      </ListEmpty>
    );
  } else {
    body = (
      <>
        <ul aria-label="Your model connections" className="space-y-3">
          {connections.map((connection) => (
            <ConnectionItem
              key={connection.id}
              connection={connection}
              onEdit={() => setEditing(connection)}
              onMakeDefault={() => onMakeDefault(connection)}
              onDelete={() => setDeleting(connection)}
              busy={makeDefault.isPending}
            />
          ))}
        </ul>
        {!hasDefault && <p className="mt-3 text-xs text-muted-foreground">None is the default: this site's model writes chats that have not picked one.</p>}
      </>
    );
  }

  return (
    <Card role="region" aria-labelledby="models-heading">
      <CardHeader className="gap-4 p-6 pb-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1">
          <h1 id="models-heading" className="text-2xl font-bold tracking-tight">
            Models
          </h1>
          <p className="text-sm text-muted-foreground">The model that writes your chats. Pick another for one chat from its menu → Model.</p>
        </div>
        <Button
          variant="secondary"
          className="self-start"
          onClick={() => setEditing("new")}
          disabled={query.isPending || query.isError || atLimit}
          title={atLimit ? `You can keep at most ${MAX_MODEL_CONNECTIONS} model connections` : undefined}
        >
          <Plus aria-hidden="true" /> Add Connection
        </Button>
      </CardHeader>
      <CardContent className="p-6 pt-4">{body}</CardContent>
      {editing !== null && (
        <ConnectionDialog
          key={editing === "new" ? "new" : editing.id}
          connection={editing === "new" ? null : editing}
          isFirst={connections.length === 0}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete Connection"
        description={
          <>
            Delete {deleting ? <strong className="text-foreground">{deleting.name}</strong> : "this connection"} and its saved key? Chats that
            used it go back to your default model.
          </>
        }
        onConfirm={onConfirmDelete}
        pending={remove.isPending}
      />
    </Card>
  );
}
