/**
 * "Model" from the chat header's menu: which model writes this chat —
 * "Default" (the person's default connection, else this site's model) or
 * one of their connections (`GET /api/model-connections`). Picking one
 * sends `PATCH /api/conversations/:id`; the next reply uses it.
 */
import type { Conversation } from "../../../../schema/chat.ts";
import { useUser } from "../../../lib/auth.ts";
import { connectionLabel, useModelConnections } from "../../../lib/model-connections-query.ts";
import { useSetConversationModel } from "../api/set-conversation-model.ts";
import { ChoiceDialog, DEFAULT_CHOICE } from "./choice-dialog.tsx";

interface ModelPickerDialogProps {
  conversation: Conversation;
  onClose: () => void;
}

/** Open while mounted. */
export function ModelPickerDialog({ conversation, onClose }: ModelPickerDialogProps) {
  const { user } = useUser();
  const connections = useModelConnections(user !== null);
  const list = connections.data ?? [];
  const fallback = list.find((c) => c.isDefault);

  return (
    <ChoiceDialog
      title="Model"
      description="Which model writes this chat, from the next reply on."
      legend="Model for this chat"
      options={[
        { value: DEFAULT_CHOICE, name: "Default", detail: fallback ? `Your default: ${connectionLabel(fallback)}` : "This site's model" },
        ...list.map((c) => ({ value: c.id, name: c.name, detail: c.kind === "site" ? `${c.model} · this site` : c.model })),
      ]}
      current={list.find((c) => c.id === conversation.modelConnectionId)?.id ?? DEFAULT_CHOICE}
      pick={useSetConversationModel(conversation.id)}
      saved={(value) => {
        const picked = list.find((c) => c.id === value) ?? fallback;
        return { title: "Model changed", description: `${picked ? connectionLabel(picked) : "This site's model"} writes the next reply.` };
      }}
      failed="change the model"
      list={{
        loading: connections.isPending && user !== null,
        error: connections.isError,
        loadingText: "Loading your models…",
        errorText: "Failed to load your models",
      }}
      manage={{ to: "/settings/models", label: list.length === 0 ? "Add your own model" : "Manage models" }}
      onClose={onClose}
    />
  );
}
