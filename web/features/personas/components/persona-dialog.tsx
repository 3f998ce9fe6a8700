/**
 * Create or edit a persona, in a dialog: name, description with its
 * x/2,000 counter, an optional avatar (the shared upload panel or a link) and
 * whether it is the default. Checked with the shared schema; messages show
 * after the first submit and then follow every change, server messages under
 * their fields.
 */
import { type FormEvent, useRef, useState } from "react";
import type { Persona } from "../../../../schema/api.ts";
import { MAX_PERSONA_DESCRIPTION_LENGTH, MAX_PERSONA_NAME_LENGTH } from "../../../../schema/constants.ts";
import { AvatarField } from "../../../components/avatar-field.tsx";
import { Avatar } from "../../../components/ui/avatar.tsx";
import { Button } from "../../../components/ui/button.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../../components/ui/dialog.tsx";
import { FormField } from "../../../components/ui/form-field.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { Switch } from "../../../components/ui/switch.tsx";
import { Textarea } from "../../../components/ui/textarea.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { serverErrorIssues, serverErrorText } from "../../../lib/api-client.ts";
import { cn } from "../../../lib/utils.ts";
import { useCreatePersona } from "../api/create-persona.ts";
import { useUpdatePersona } from "../api/update-persona.ts";
import {
  type PersonaFormErrors,
  type PersonaFormValues,
  issuesToPersonaErrors,
  personaFormValues,
  personaInitial,
  validatePersonaForm,
} from "../lib/persona-form.ts";

interface PersonaDialogProps {
  /** The persona being edited, or null to create one. */
  persona: Persona | null;
  /** Creating the person's first persona (it becomes the default). */
  isFirst: boolean;
  /** What `{{user}}` is without a default persona: the person's first name. */
  fallbackName: string;
  onClose: () => void;
}

/** Counter beside a label: characters after trimming, red past the limit. */
function Counter({ value, max }: { value: string; max: number }) {
  const length = value.trim().length;
  return (
    <span className={cn("text-xs tabular-nums", length > max ? "text-red-400" : "text-muted-foreground")}>
      {length.toLocaleString("en-US")}/{max.toLocaleString("en-US")}
    </span>
  );
}

/** Open while mounted; mount it with a `key` per persona so the form starts fresh. */
export function PersonaDialog({ persona, isFirst, fallbackName, onClose }: PersonaDialogProps) {
  const isEdit = persona !== null;
  const [values, setValues] = useState(() => personaFormValues(persona, isFirst));
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<PersonaFormErrors>({});
  const formRef = useRef<HTMLFormElement>(null);
  const create = useCreatePersona();
  const update = useUpdatePersona();
  const isPending = create.isPending || update.isPending;

  const errors: PersonaFormErrors = { ...serverErrors, ...(submitted ? validatePersonaForm(values).errors : {}) };

  const set = <K extends keyof PersonaFormValues>(field: K, value: PersonaFormValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    // A server message is about the value that was sent; a change makes it stale.
    setServerErrors(({ [field]: _stale, ...rest }) => rest);
  };

  const focusFirstInvalid = () =>
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (isPending) return;
    const { data } = validatePersonaForm(values);
    if (!data) {
      focusFirstInvalid();
      return;
    }
    const onSuccess = (saved: Persona) => {
      toast({
        title: isEdit ? "Persona updated" : "Persona created",
        description: saved.isDefault ? `${saved.name} is your default persona.` : `${saved.name} is ready to use in chats.`,
      });
      onClose();
    };
    const onError = (error: unknown) => {
      const fieldErrors = issuesToPersonaErrors(serverErrorIssues(error));
      setServerErrors(fieldErrors);
      if (Object.keys(fieldErrors).length > 0) focusFirstInvalid();
      toast({
        title: "Error",
        description: serverErrorText(error) ?? (isEdit ? "Failed to update persona" : "Failed to create persona"),
        variant: "destructive",
      });
    };
    if (persona) update.mutate({ id: persona.id, input: data }, { onSuccess, onError });
    else create.mutate(data, { onSuccess, onError });
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{isEdit ? "Edit Persona" : "New Persona"}</DialogTitle>
          <DialogDescription>Characters call you by this name and know what the description says.</DialogDescription>
        </DialogHeader>
        <form ref={formRef} onSubmit={submit} noValidate className="space-y-5" aria-busy={isPending}>
          <FormField
            id="persona-name"
            label="Name"
            hint="Replaces {{user}} in chats."
            error={errors.name}
            aside={<Counter value={values.name} max={MAX_PERSONA_NAME_LENGTH} />}
          >
            {(describedBy) => (
              <Input
                id="persona-name"
                name="name"
                autoComplete="off"
                placeholder="e.g. Wren Ashdown"
                value={values.name}
                onChange={(e) => set("name", e.target.value)}
                aria-invalid={errors.name ? true : undefined}
                aria-describedby={describedBy}
              />
            )}
          </FormField>
          <FormField
            id="persona-description"
            label="Description (Optional)"
            hint="Who you are in the story: looks, background, how others see you. Characters read it in every chat that uses this persona."
            error={errors.description}
            aside={<Counter value={values.description} max={MAX_PERSONA_DESCRIPTION_LENGTH} />}
          >
            {(describedBy) => (
              <Textarea
                id="persona-description"
                name="description"
                rows={5}
                placeholder="A travelling cartographer with ink-stained fingers and a habit of asking too many questions…"
                value={values.description}
                onChange={(e) => set("description", e.target.value)}
                aria-invalid={errors.description ? true : undefined}
                aria-describedby={describedBy}
                className="resize-y"
              />
            )}
          </FormField>
          <AvatarField
            id="persona-avatarUrl"
            value={values.avatarUrl}
            onChange={(url) => set("avatarUrl", url)}
            error={errors.avatarUrl}
            panelHeight={200}
            hint="Filled in for you after an upload. You can also paste an https:// link to an image. Leave empty to show your initial."
            previewClassName="size-24 rounded-full"
            preview={
              <Avatar
                src={values.avatarUrl.trim() || null}
                fallback={personaInitial(values.name)}
                alt="Persona picture preview"
                className="size-full"
                fallbackClassName="text-3xl"
              />
            }
          />
          <div className="flex items-start justify-between gap-4 rounded-xl border border-border bg-surface/50 p-4">
            <div className="space-y-1">
              <label htmlFor="persona-isDefault" className="text-sm font-medium">
                Default persona
              </label>
              <p id="persona-isDefault-hint" className="text-xs leading-relaxed text-muted-foreground">
                New chats use it unless you pick another. Without a default, characters call you {fallbackName}.
              </p>
            </div>
            <Switch
              id="persona-isDefault"
              checked={values.isDefault}
              onCheckedChange={(checked) => set("isDefault", checked)}
              aria-describedby="persona-isDefault-hint"
            />
          </div>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" variant="gradient" disabled={isPending}>
              {isEdit ? (update.isPending ? "Saving..." : "Save Changes") : create.isPending ? "Creating..." : "Create Persona"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
