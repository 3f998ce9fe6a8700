/**
 * The Create Character and Edit Character form (SPEC.md §2, §4, §5, §8):
 * every field with its hint, the avatar upload panel or URL, tags, the NSFW
 * switch, "Lorebooks" (the creator's standalone books attached to the
 * character, DESIGN.md turn 4 "Lorebooks") and, in "Advanced (character
 * card)", the card fields (the greeting sits with the personality: every chat
 * starts with it). Checked with the shared schema (the server says the same
 * messages); messages show after the first submit and then follow every
 * change. Success goes to /my-characters with the lists refreshed.
 *
 * The attached books are their own resource (`PUT
 * /api/characters/{id}/lorebooks`), saved by the same submit: on Edit
 * before the character (a refused book then changes nothing), on Create
 * right after it (a new character has no id before); a create whose books
 * fail to attach goes to Edit Character to try again.
 */
import { ChevronDown, Sparkles } from "lucide-react";
import { type FormEvent, type ReactNode, useId, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import type { Character, Tag } from "../../../../schema/api.ts";
import { CHARACTER_LIMITS } from "../../../../schema/inputs.ts";
import { AvatarField } from "../../../components/avatar-field.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { FormField } from "../../../components/ui/form-field.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { Switch } from "../../../components/ui/switch.tsx";
import { Textarea } from "../../../components/ui/textarea.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { RefusalNotice } from "../../../components/refusal-notice.tsx";
import { errorStatus, serverErrorIssues, serverErrorText } from "../../../lib/api-client.ts";
import { isContentRefusal } from "../../../lib/request-review.ts";
import { useUser } from "../../../lib/auth.ts";
import { cn } from "../../../lib/utils.ts";
import { useAttachToCharacter, useCharacterLorebooks } from "../../lorebooks/api/lorebooks.ts";
import { LorebookChecklist } from "../../lorebooks/components/lorebook-checklist.tsx";
import { attachedChanged } from "../../lorebooks/lib/attached.ts";
import { useCreateCharacter } from "../api/create-character.ts";
import { useUpdateCharacter } from "../api/update-character.ts";
import {
  type CharacterFormErrors,
  type CharacterFormValues,
  EMPTY_CHARACTER_FORM,
  characterToFormValues,
  hasAdvancedContent,
  isAdvancedError,
  issuesToFormErrors,
  validateCharacterForm,
} from "../lib/character-form.ts";
import { AlternateGreetingsField } from "./alternate-greetings-field.tsx";
import { LorebookField } from "./lorebook-field.tsx";
import { CharacterAvatar } from "./character-avatar.tsx";
import { DrawAvatar } from "./draw-avatar.tsx";
import { TagPicker } from "./tag-picker.tsx";
import { VoicePicker } from "./voice-picker.tsx";

type TextField = Exclude<keyof CharacterFormValues, "tags" | "isNsfw" | "allowForks" | "alternateGreetings" | "voice" | "characterBook" | "lorebook">;

interface CharacterFormProps {
  /** The character being edited; omitted on Create Character. */
  character?: Character;
  popularTags: Tag[];
  popularLoading: boolean;
}

export function CharacterForm({ character, popularTags, popularLoading }: CharacterFormProps) {
  const isEdit = character !== undefined;
  const [values, setValues] = useState(() => (character ? characterToFormValues(character) : EMPTY_CHARACTER_FORM));
  // Messages show after the first submit attempt, then follow every change.
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<CharacterFormErrors>({});
  // A refusal as sexual content involving minors: shown above the buttons with what to change and "Ask for review" (issue 35).
  const [refusal, setRefusal] = useState<unknown>(null);
  const [advancedOpen, setAdvancedOpen] = useState(() => hasAdvancedContent(values));
  const formRef = useRef<HTMLFormElement>(null);
  const advancedId = useId();
  const navigate = useNavigate();
  const { user } = useUser();
  const create = useCreateCharacter();
  const update = useUpdateCharacter(character?.id ?? 0);
  const attach = useAttachToCharacter();
  const isPending = create.isPending || update.isPending || attach.isPending;
  // The books attached now (Edit: null until the server says which; Create: none yet).
  const savedLorebooks = useCharacterLorebooks(character?.id ?? 0, isEdit && user !== null);
  const [lorebookIds, setLorebookIds] = useState<string[] | null>(isEdit ? null : []);
  if (lorebookIds === null && savedLorebooks.data) setLorebookIds(savedLorebooks.data);

  const errors: CharacterFormErrors = { ...serverErrors, ...(submitted ? validateCharacterForm(values).errors : {}) };

  const set = <K extends keyof CharacterFormValues>(field: K, value: CharacterFormValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    // A server message is about the value that was sent; a change makes it stale.
    setServerErrors((current) => {
      const next = { ...current };
      for (const key of Object.keys(next)) if (key === field || key.startsWith(`${field}.`)) delete next[key];
      return next;
    });
  };

  const action = isEdit ? "edit" : "create";
  const signInMessage = `Please sign in to ${action} a character`;

  const focusFirstInvalid = () =>
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());

  const showErrors = (found: CharacterFormErrors) => {
    if (Object.keys(found).some(isAdvancedError)) setAdvancedOpen(true);
    focusFirstInvalid();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (isPending) return;
    const result = validateCharacterForm(values);
    if (!result.data) {
      showErrors(result.errors);
      return;
    }
    if (!user) {
      toast({ title: "Authentication required", description: signInMessage, variant: "destructive" });
      return;
    }
    const onLorebooksError = (error: unknown) =>
      toast({ title: "Error", description: serverErrorText(error) ?? "Failed to attach the lorebooks", variant: "destructive" });
    const onSuccess = () => {
      toast({
        title: "Success!",
        description: isEdit ? "Character updated successfully" : "Character created successfully",
      });
      navigate("/my-characters");
    };
    const onError = (error: unknown) => {
      if (errorStatus(error) === 401) {
        toast({ title: "Authentication required", description: signInMessage, variant: "destructive" });
        return;
      }
      const fieldErrors = issuesToFormErrors(serverErrorIssues(error), values);
      setServerErrors(fieldErrors);
      setRefusal(isContentRefusal(error) ? error : null);
      if (Object.keys(fieldErrors).length > 0) showErrors(fieldErrors);
      toast({
        title: "Error",
        description: serverErrorText(error) ?? (isEdit ? "Failed to update character" : "Failed to create character"),
        variant: "destructive",
      });
    };
    const data = result.data;
    if (character) {
      if (lorebookIds !== null && savedLorebooks.data && attachedChanged(lorebookIds, savedLorebooks.data)) {
        attach.mutate(
          { characterId: character.id, lorebookIds },
          { onSuccess: () => update.mutate(data, { onSuccess, onError }), onError: (error) => (errorStatus(error) === 401 ? onError(error) : onLorebooksError(error)) },
        );
      } else update.mutate(data, { onSuccess, onError });
      return;
    }
    create.mutate(data, {
      onSuccess: (created) => {
        if (!lorebookIds?.length) return onSuccess();
        attach.mutate(
          { characterId: created.id, lorebookIds },
          {
            onSuccess,
            onError: (error) => {
              toast({
                title: "Character created",
                description: `Its lorebooks were not attached: ${serverErrorText(error) ?? "please try again"}.`,
                variant: "destructive",
              });
              navigate(`/edit-character/${created.id}`);
            },
          },
        );
      },
      onError,
    });
  };

  /** A text input or textarea bound to `field`, with its label, hint and message. */
  const text = (
    field: TextField,
    label: string,
    hint: ReactNode,
    options: { multiline?: boolean; rows?: number; placeholder?: string; max?: number; mono?: boolean } = {},
  ) => {
    const id = `character-${field}`;
    const error = errors[field];
    const value = values[field];
    const common = {
      id,
      name: field,
      value,
      placeholder: options.placeholder,
      "aria-invalid": error ? true : undefined,
    } as const;
    return (
      <FormField
        id={id}
        label={label}
        hint={hint}
        error={error}
        aside={
          options.max !== undefined && (
            <span
              className={cn("text-xs tabular-nums", value.trim().length > options.max ? "text-red-400" : "text-muted-foreground")}
            >
              {value.trim().length}/{options.max}
            </span>
          )
        }
      >
        {(describedBy) =>
          options.multiline ? (
            <Textarea
              {...common}
              rows={options.rows ?? 4}
              aria-describedby={describedBy}
              onChange={(e) => set(field, e.target.value)}
              className={cn("resize-y", options.mono && "font-mono text-[13px]")}
            />
          ) : (
            <Input {...common} autoComplete="off" aria-describedby={describedBy} onChange={(e) => set(field, e.target.value)} />
          )
        }
      </FormField>
    );
  };

  const greetingErrors: Record<number, string> = {};
  for (const [key, message] of Object.entries(errors)) {
    const match = /^alternateGreetings\.(\d+)$/.exec(key);
    if (match && message) greetingErrors[Number(match[1])] = message;
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="space-y-6" aria-busy={isPending}>
      <Section title="Basics">
        {text("name", "Name", "What people call your character, and who {{char}} stands for in the texts below.", {
          placeholder: "e.g. Captain Mira Vale",
          max: CHARACTER_LIMITS.name,
        })}
        {text(
          "description",
          "Description",
          "A short introduction shown on character cards: who they are and why someone would want to talk to them. 10 to 300 characters.",
          { multiline: true, rows: 3, placeholder: "A retired sky-pirate who now runs a tea shop…", max: CHARACTER_LIMITS.description },
        )}
        {text(
          "longDescription",
          "Long description (Optional)",
          "Shown on the character's page instead of the short description: backstory, appearance, anything worth knowing.",
          { multiline: true, rows: 5 },
        )}
      </Section>

      <Section title="Picture">
        <AvatarField
          id="character-avatarUrl"
          value={values.avatarUrl}
          onChange={(url) => set("avatarUrl", url)}
          error={errors.avatarUrl}
          previewClassName="aspect-[3/4] w-32 rounded-xl sm:w-40"
          preview={
            <CharacterAvatar
              id={character?.id ?? 0}
              name={values.name.trim() || "New character"}
              avatarUrl={values.avatarUrl.trim() || null}
              priority
              initialClassName="text-4xl"
            />
          }
        />
        {text(
          "appearance",
          "Appearance for pictures (Optional)",
          "How they look: face, hair, build, clothes. Pictures in their chats and a drawn avatar start from it; nobody reads it in the chat.",
          {
            multiline: true,
            rows: 3,
            placeholder: "Weathered woman in her fifties, grey braid, scar over one eye, long blue coat with brass buttons",
            max: CHARACTER_LIMITS.appearance,
          },
        )}
        <DrawAvatar
          initialDescription={values.appearance.trim() || values.description.trim()}
          onAccept={(path) => set("avatarUrl", path)}
        />
      </Section>

      <Section title="Personality and story">
        {text(
          "personality",
          "Personality",
          "Traits, quirks, likes, fears and how they talk. The AI plays the character from this, so be specific. At least 10 characters.",
          { multiline: true, rows: 5, placeholder: "Warm but sarcastic, fiercely loyal, hates being called old…" },
        )}
        {text(
          "scenario",
          "Scenario (Optional)",
          "Where and when the story starts, and how {{user}} (you) and {{char}} know each other.",
          { multiline: true, rows: 3, placeholder: "{{user}} walks into {{char}}'s tea shop on a stormy night…" },
        )}
        {text(
          "greeting",
          "Greeting (first message)",
          "The character's opening message in every new chat. Sets the tone, the scene and how long replies tend to be.",
          { multiline: true, rows: 5, placeholder: "*The bell above the door jingles.* Well, look what the storm blew in…" },
        )}
        {text(
          "exampleConversation",
          "Example conversation (Optional)",
          <>
            A few sample lines that show how the character talks. Use <code className="text-violet-200">{"{{char}}:"}</code>{" "}
            for the character's lines and <code className="text-violet-200">{"{{user}}:"}</code> for yours, one line each.
          </>,
          {
            multiline: true,
            rows: 6,
            mono: true,
            placeholder: "{{user}}: Is this place open?\n{{char}}: *wipes the counter* For you? Always. Tea or trouble?",
          },
        )}
      </Section>

      <Section title="Voice">
        <VoicePicker value={values.voice} onChange={(voice) => set("voice", voice)} error={errors.voice} />
      </Section>

      <Section title="Tags and content">
        <TagPicker
          value={values.tags}
          onChange={(tags) => set("tags", tags)}
          popularTags={popularTags}
          popularLoading={popularLoading}
          error={errors.tags}
        />
        <div className="flex items-start justify-between gap-4 rounded-xl border border-border bg-surface/50 p-4">
          <div className="space-y-1">
            <label htmlFor="character-isNsfw" className="text-sm font-medium">
              NSFW
            </label>
            <p id="character-isNsfw-hint" className="text-xs leading-relaxed text-muted-foreground">
              Turn on for adult or sexually explicit content. NSFW characters are hidden from people who have not turned
              NSFW on.
            </p>
          </div>
          <Switch
            id="character-isNsfw"
            checked={values.isNsfw}
            onCheckedChange={(checked) => set("isNsfw", checked)}
            aria-describedby="character-isNsfw-hint"
          />
        </div>
        <div className="flex items-start justify-between gap-4 rounded-xl border border-border bg-surface/50 p-4">
          <div className="space-y-1">
            <label htmlFor="character-allowForks" className="text-sm font-medium">
              Allow forks
            </label>
            <p id="character-allowForks-hint" className="text-xs leading-relaxed text-muted-foreground">
              Others may copy this character into one of their own to build on it. Every fork credits you and links
              back here.
            </p>
          </div>
          <Switch
            id="character-allowForks"
            checked={values.allowForks}
            onCheckedChange={(checked) => set("allowForks", checked)}
            aria-describedby="character-allowForks-hint"
          />
        </div>
      </Section>

      <Section title="Lorebooks">
        {savedLorebooks.isError && (
          <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-red-300">
            The lorebooks attached to this character could not be loaded.
            <Button type="button" variant="secondary" size="sm" onClick={() => void savedLorebooks.refetch()}>
              Try Again
            </Button>
          </div>
        )}
        <LorebookChecklist
          legend="Lorebooks attached to this character"
          hideLegend
          hint="Your lorebooks that apply in every chat with this character, anyone's, beside its card's own lorebook (under Advanced). They are not part of its card's export."
          value={lorebookIds ?? []}
          onChange={setLorebookIds}
          disabled={lorebookIds === null || isPending}
          newTab
        />
      </Section>

      <section className="rounded-2xl border border-border bg-card">
        <h2>
          <button
            type="button"
            aria-expanded={advancedOpen}
            aria-controls={advancedId}
            onClick={() => setAdvancedOpen((open) => !open)}
            className="flex w-full cursor-pointer items-center justify-between gap-3 rounded-2xl p-5 text-left focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring md:px-6"
          >
            <span>
              <span className="flex items-center gap-2 text-lg font-semibold">
                <Sparkles aria-hidden="true" className="size-4 text-pink-300" /> Advanced (character card)
              </span>
              <span className="mt-1 block text-sm font-normal text-muted-foreground">
                Alternate greetings and prompt fields from the Character Card format, for finer control of the chat.
              </span>
            </span>
            <ChevronDown
              aria-hidden="true"
              className={cn("size-5 shrink-0 text-muted-foreground transition-transform", advancedOpen && "rotate-180")}
            />
          </button>
        </h2>
        <div id={advancedId} hidden={!advancedOpen} className="space-y-6 border-t border-border p-5 md:p-6">
          <AlternateGreetingsField
            value={values.alternateGreetings}
            onChange={(greetings) => set("alternateGreetings", greetings)}
            errors={greetingErrors}
          />
          {text(
            "systemPrompt",
            "System prompt (Optional)",
            "Instructions for the AI, placed before everything else. Leave empty to use Fabled's default roleplay instructions.",
            { multiline: true, rows: 4, mono: true },
          )}
          {text(
            "postHistoryInstructions",
            "Post-history instructions (Optional)",
            "Placed after the chat history, right before the AI replies: good for reminders about style, length or format.",
            { multiline: true, rows: 3, mono: true },
          )}
          {text(
            "creatorNotes",
            "Creator notes (Optional)",
            "Notes for people who download your character card: tips, content warnings, version history. Never sent to the AI.",
            { multiline: true, rows: 3 },
          )}
          <LorebookField value={values.lorebook} onChange={(rows) => set("lorebook", rows)} error={errors.characterBook} />
        </div>
      </section>

      {refusal !== null && <RefusalNotice error={refusal} />}

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button asChild variant="outline" size="lg">
          <Link to="/my-characters">Cancel</Link>
        </Button>
        <Button type="submit" variant="gradient" size="lg" disabled={isPending} className="sm:min-w-48">
          {isEdit ? (isPending ? "Updating..." : "Update Character") : isPending ? "Creating..." : "Create Character"}
        </Button>
      </div>
    </form>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="space-y-6 rounded-2xl border border-border bg-card p-5 md:p-6">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}
