/**
 * "Persona" from the chat header's menu: who the person plays in this chat
 * — "Default persona" (their default one, else their first name) or one of
 * their personas (`GET /api/personas`). Picking one sends `PUT
 * /api/conversations/:id/persona`; the open chat plays it from the next
 * reply on (docs/decisions/0007-steering-a-chat.md "Personas"). A dialog
 * rather than a submenu: it fits a phone's width and has room for each
 * persona's description. A member of someone else's shared room picks one
 * of their personas or "No persona" (their name only), and is told that the
 * room's model — the owner's choice — receives it (issue 42).
 */
import type { Conversation } from "../../../../schema/chat.ts";
import { Avatar } from "../../../components/ui/avatar.tsx";
import { useUser } from "../../../lib/auth.ts";
import { usePersonas } from "../../../lib/personas-query.ts";
import { userPlayName } from "../../../lib/user-display.ts";
import { useSetConversationPersona } from "../api/set-conversation-persona.ts";
import { characterInitial } from "../lib/chat-character.ts";
import { personaNote } from "../lib/persona-note.ts";
import { ChoiceDialog, DEFAULT_CHOICE } from "./choice-dialog.tsx";

interface PersonaPickerDialogProps {
  conversation: Conversation;
  characterName: string;
  onClose: () => void;
}

/** Open while mounted. */
export function PersonaPickerDialog({ conversation, characterName, onClose }: PersonaPickerDialogProps) {
  const { user } = useUser();
  const personas = usePersonas(user !== null);
  const list = personas.data ?? [];
  const owner = conversation.members.find((m) => m.role === "owner");
  // A member of someone else's room: no "default" there, only a persona they pick or none (docs/decisions/0025).
  const isMember = user !== null && owner !== undefined && owner.userId !== user.id;
  const playName = user ? userPlayName(user) : null;
  const defaultName = list.find((p) => p.isDefault)?.name ?? playName;
  const avatar = (name: string, src: string | null) => <Avatar src={src} fallback={characterInitial(name)} className="size-9" />;
  const fallbackName = isMember ? playName : defaultName;

  return (
    <ChoiceDialog
      title="Persona"
      description={
        isMember
          ? `Who you are in this chat, from your next message on. ${personaNote(owner?.name ?? "The chat's owner")}`
          : `Who you are in this chat. ${characterName} uses it from the next reply on.`
      }
      legend="Play this chat as"
      options={[
        isMember
          ? { value: DEFAULT_CHOICE, name: "No persona", detail: playName ? `Just your name, ${playName}` : "Just your name", avatar: avatar(playName ?? "?", null) }
          : {
              value: DEFAULT_CHOICE,
              name: "Default persona",
              detail: defaultName ? `You as ${defaultName}` : "Your default persona",
              avatar: avatar(defaultName ?? "?", null),
            },
        ...list.map((p) => ({ value: p.id, name: p.name, detail: p.description, avatar: avatar(p.name, p.avatarUrl) })),
      ]}
      // A persona deleted since it was picked: the chat plays the default one (the Worker's rule).
      current={list.find((p) => p.id === conversation.personaId)?.id ?? DEFAULT_CHOICE}
      pick={useSetConversationPersona(conversation.id)}
      saved={(value) => {
        const name = value === DEFAULT_CHOICE ? fallbackName : list.find((p) => p.id === value)?.name;
        return { title: "Persona changed", description: `${characterName} talks to ${name ?? "your default persona"} from the next reply on.` };
      }}
      failed="change the persona"
      list={{
        loading: personas.isPending && user !== null,
        error: personas.isError,
        loadingText: "Loading your personas…",
        errorText: "Failed to load your personas",
      }}
      manage={{ to: "/profile", label: list.length === 0 ? "Create a persona" : "Manage personas" }}
      onClose={onClose}
    />
  );
}
