/**
 * Add or edit a model connection, in a dialog (DESIGN.md "Your own model
 * (turn 3)"): a name; the kind (an OpenAI-compatible endpoint, or one of
 * this site's models); for an endpoint its base URL, its API key
 * (write-only: the saved one shows only as its last four characters) and
 * "Test connection", which lists the endpoint's models to pick from; the
 * generation settings; and whether it is the default. Checked with the
 * shared schema; server messages go under their fields.
 */
import { CheckCircle2, LoaderCircle, PlugZap } from "lucide-react";
import { type FormEvent, useRef, useState } from "react";
import { KEY_STAYS_WITH_ITS_ADDRESS, type ModelConnection, SETTING_BOUNDS, sameOrigin } from "../../../../schema/model-connections.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../../../components/ui/dialog.tsx";
import { FormField } from "../../../components/ui/form-field.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { Switch } from "../../../components/ui/switch.tsx";
import { Textarea } from "../../../components/ui/textarea.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { serverErrorIssues, serverErrorText } from "../../../lib/api-client.ts";
import { cn } from "../../../lib/utils.ts";
import { useCreateModelConnection } from "../api/create-model-connection.ts";
import { useSiteModels } from "../api/get-site-models.ts";
import { useTestModelConnection } from "../api/test-model-connection.ts";
import { useUpdateModelConnection } from "../api/update-model-connection.ts";
import {
  type ConnectionFormErrors,
  type ConnectionFormValues,
  connectionFormValues,
  issuesToConnectionErrors,
  type NumberSetting,
  placeTestFailure,
  validateConnectionForm,
} from "../lib/connection-form.ts";

interface ConnectionDialogProps {
  /** The connection being edited, or null to add one. */
  connection: ModelConnection | null;
  /** Adding the person's first connection (it becomes the default). */
  isFirst: boolean;
  onClose: () => void;
}

/** Label, hint and input attributes of each number setting. */
const NUMBER_FIELDS: { key: NumberSetting; label: string; hint: string; step: string }[] = [
  { key: "temperature", label: "Temperature", hint: "Higher is more varied (0–2).", step: "0.05" },
  { key: "topP", label: "Top-p", hint: "Nucleus sampling (0–1).", step: "0.01" },
  { key: "maxTokens", label: "Max reply tokens", hint: "Longest reply (16–4096).", step: "1" },
  { key: "contextTokens", label: "Context size", hint: "Prompt budget in tokens (1024–131072).", step: "1" },
  { key: "frequencyPenalty", label: "Frequency penalty", hint: "Less repetition when higher (-2–2).", step: "0.05" },
];

/** The endpoint's optional models beside the chat model, each a model name typed in; empty means this site's own. */
const OPTIONAL_MODEL_FIELDS: { key: "embeddingModel" | "imageModel"; id: string; label: string; hint: string }[] = [
  {
    key: "embeddingModel",
    id: "connection-embedding-model",
    label: "Embedding model (Optional)",
    hint: "Remembers your chats through this endpoint's /embeddings, e.g. nomic-embed-text. Empty: this site's memory.",
  },
  {
    key: "imageModel",
    id: "connection-image-model",
    label: "Image model (Optional)",
    hint: "Draws pictures in chats and avatars through this endpoint's /images/generations, e.g. gpt-image-1. Empty: this site's pictures.",
  },
];

const KINDS = [
  { value: "openai", label: "OpenAI-compatible endpoint", detail: "OpenRouter, OpenAI, Ollama, llama.cpp, vLLM…" },
  { value: "site", label: "This site's models", detail: "The models this site runs for everyone" },
] as const;

/** Open while mounted; mount it with a `key` per connection so the form starts fresh. */
export function ConnectionDialog({ connection, isFirst, onClose }: ConnectionDialogProps) {
  const isEdit = connection !== null;
  const [values, setValues] = useState(() => connectionFormValues(connection, isFirst));
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<ConnectionFormErrors>({});
  const [models, setModels] = useState<string[] | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const create = useCreateModelConnection();
  const update = useUpdateModelConnection();
  const test = useTestModelConnection();
  const siteModels = useSiteModels();
  const isPending = create.isPending || update.isPending;
  const site = values.kind === "site";

  const errors: ConnectionFormErrors = { ...serverErrors, ...(submitted ? validateConnectionForm(values, isEdit).errors : {}) };

  const set = <K extends keyof ConnectionFormValues>(field: K, value: ConnectionFormValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setServerErrors((errors) => {
      const next: ConnectionFormErrors = { ...errors };
      delete next[field as keyof ConnectionFormErrors];
      // Another address may be the saved one again: the key's error goes with the old address.
      if (field === "baseUrl" && next.apiKey === KEY_STAYS_WITH_ITS_ADDRESS) delete next.apiKey;
      return next;
    });
    // Another endpoint or key: the models found no longer apply.
    if (field === "baseUrl" || field === "apiKey" || field === "kind") setModels(null);
  };
  const setSetting = (field: NumberSetting | "stop", value: string) => {
    setValues((v) => ({ ...v, settings: { ...v.settings, [field]: value } }));
    setServerErrors(({ [field]: _stale, ...rest }) => rest);
  };

  const pickKind = (kind: ConnectionFormValues["kind"]) => {
    set("kind", kind);
    if (kind === "site" && siteModels.data && !siteModels.data.models.includes(values.model)) {
      setValues((v) => ({ ...v, kind, model: siteModels.data.default }));
    }
  };

  const focusFirstInvalid = () =>
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());

  const onTest = () => {
    setServerErrors(({ baseUrl: _stale, apiKey: _staleKey, ...rest }) => rest);
    const baseUrl = values.baseUrl.trim();
    const typedKey = values.apiKey.trim();
    // The saved key goes only to its own address (the server refuses the same way).
    if (!typedKey && connection?.keyHint && connection.baseUrl && !sameOrigin(baseUrl, connection.baseUrl)) {
      setModels(null);
      setServerErrors((e) => ({ ...e, apiKey: KEY_STAYS_WITH_ITS_ADDRESS }));
      return;
    }
    const body = { baseUrl, ...(typedKey ? { apiKey: typedKey } : connection ? { id: connection.id } : {}) };
    test.mutate(body, {
      onSuccess: ({ models: found }) => {
        setModels(found);
        if (found.length > 0 && !found.includes(values.model)) setValues((v) => ({ ...v, model: found[0]! }));
      },
      onError: (error) => {
        setModels(null);
        // A refused key shows by the key field (issue 41); anything else by the base URL.
        const { field, text } = placeTestFailure(serverErrorText(error) ?? "The test failed. Please try again.");
        setServerErrors((e) => ({ ...e, [field]: text }));
      },
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (isPending) return;
    const { data } = validateConnectionForm(values, isEdit);
    if (!data) {
      focusFirstInvalid();
      return;
    }
    const onSuccess = (saved: ModelConnection) => {
      toast({
        title: isEdit ? "Connection updated" : "Connection added",
        description: saved.isDefault ? `${saved.name} now writes your chats.` : `${saved.name} is ready to pick in a chat.`,
      });
      onClose();
    };
    const onError = (error: unknown) => {
      const fieldErrors = issuesToConnectionErrors(serverErrorIssues(error));
      setServerErrors(fieldErrors);
      if (Object.keys(fieldErrors).length > 0) focusFirstInvalid();
      toast({ title: "Error", description: serverErrorText(error) ?? "Failed to save the connection", variant: "destructive" });
    };
    if (connection) update.mutate({ id: connection.id, input: data }, { onSuccess, onError });
    else create.mutate(data, { onSuccess, onError });
  };

  const keyHint = connection?.keyHint;

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{isEdit ? "Edit Connection" : "Add Connection"}</DialogTitle>
          <DialogDescription>The model that writes your chats, and how it writes.</DialogDescription>
        </DialogHeader>
        <form ref={formRef} onSubmit={submit} noValidate className="space-y-5" aria-busy={isPending}>
          <FormField id="connection-name" label="Name" error={errors.name}>
            {(describedBy) => (
              <Input
                id="connection-name"
                autoComplete="off"
                placeholder="e.g. My Ollama"
                value={values.name}
                onChange={(e) => set("name", e.target.value)}
                aria-invalid={errors.name ? true : undefined}
                aria-describedby={describedBy}
              />
            )}
          </FormField>

          <fieldset className="min-w-0 space-y-2">
            <legend className="mb-2 text-sm font-medium">Kind</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {KINDS.map((kind) => (
                <label
                  key={kind.value}
                  className={cn(
                    "flex cursor-pointer items-start gap-3 rounded-xl border border-border bg-surface/40 p-3 transition-colors hover:bg-surface",
                    "has-[:checked]:border-primary/70 has-[:checked]:bg-primary/10 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring",
                  )}
                >
                  <input
                    type="radio"
                    name="connection-kind"
                    value={kind.value}
                    checked={values.kind === kind.value}
                    onChange={() => pickKind(kind.value)}
                    className="mt-0.5 size-4 shrink-0 accent-pink-500 focus:outline-none"
                  />
                  <span className="min-w-0">
                    <span className="block text-sm font-medium">{kind.label}</span>
                    <span className="block text-xs text-muted-foreground">{kind.detail}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>

          {!site && (
            <>
              <FormField
                id="connection-base-url"
                label="Base URL"
                hint="Where the endpoint's /chat/completions and /models live, e.g. https://openrouter.ai/api/v1 or, on your own computer, http://localhost:11434/v1 (Ollama)."
                error={errors.baseUrl}
              >
                {(describedBy) => (
                  <Input
                    id="connection-base-url"
                    type="url"
                    inputMode="url"
                    autoComplete="off"
                    spellCheck={false}
                    placeholder="https://openrouter.ai/api/v1"
                    value={values.baseUrl}
                    onChange={(e) => set("baseUrl", e.target.value)}
                    aria-invalid={errors.baseUrl ? true : undefined}
                    aria-describedby={describedBy}
                  />
                )}
              </FormField>
              <FormField
                id="connection-api-key"
                label="API key (Optional)"
                hint={
                  keyHint
                    ? `A key ending in …${keyHint} is saved. Type a new one to replace it; leave empty to keep it (for this address only: a saved key is never sent anywhere else). Keys are stored encrypted and never shown again.`
                    : "Stored encrypted and never shown again. Local servers usually need none."
                }
                error={errors.apiKey}
              >
                {(describedBy) => (
                  <Input
                    id="connection-api-key"
                    type="password"
                    autoComplete="off"
                    spellCheck={false}
                    placeholder={keyHint ? `…${keyHint}` : "sk-…"}
                    value={values.apiKey}
                    onChange={(e) => set("apiKey", e.target.value)}
                    aria-invalid={errors.apiKey ? true : undefined}
                    aria-describedby={describedBy}
                  />
                )}
              </FormField>
              <div className="flex flex-wrap items-center gap-3">
                <Button type="button" variant="secondary" onClick={onTest} disabled={test.isPending || values.baseUrl.trim() === ""}>
                  {test.isPending ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <PlugZap aria-hidden="true" />} Test
                  connection
                </Button>
                <p aria-live="polite" className="text-sm text-muted-foreground">
                  {models && (
                    <span className="inline-flex items-center gap-1.5 text-emerald-300">
                      <CheckCircle2 aria-hidden="true" className="size-4" />
                      {models.length === 1 ? "Connected: 1 model found" : `Connected: ${models.length} models found`}
                    </span>
                  )}
                </p>
              </div>
            </>
          )}

          <FormField
            id="connection-model"
            label="Model"
            hint={site ? "One of the models this site runs." : models ? "Pick one of the endpoint's models, or type its name." : "Its name on the endpoint, e.g. llama3.1:8b; Test connection lists them."}
            error={errors.model}
          >
            {(describedBy) =>
              site || (models && models.length > 0) ? (
                <select
                  id="connection-model"
                  value={values.model}
                  onChange={(e) => set("model", e.target.value)}
                  aria-invalid={errors.model ? true : undefined}
                  aria-describedby={describedBy}
                  className="h-10 w-full rounded-md border border-input bg-surface px-3 text-sm focus-visible:outline-2 focus-visible:outline-ring"
                >
                  {(site ? (siteModels.data?.models ?? [values.model]) : models!).map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </select>
              ) : (
                <Input
                  id="connection-model"
                  autoComplete="off"
                  spellCheck={false}
                  placeholder="e.g. llama3.1:8b"
                  value={values.model}
                  onChange={(e) => set("model", e.target.value)}
                  aria-invalid={errors.model ? true : undefined}
                  aria-describedby={describedBy}
                />
              )
            }
          </FormField>

          {!site &&
            OPTIONAL_MODEL_FIELDS.map((field) => (
              <FormField key={field.key} id={field.id} label={field.label} hint={field.hint} error={errors[field.key]}>
                {(describedBy) => (
                  <Input
                    id={field.id}
                    autoComplete="off"
                    spellCheck={false}
                    value={values[field.key]}
                    onChange={(e) => set(field.key, e.target.value)}
                    aria-invalid={errors[field.key] ? true : undefined}
                    aria-describedby={describedBy}
                  />
                )}
              </FormField>
            ))}

          <fieldset className="min-w-0 space-y-3 rounded-xl border border-border p-4">
            <legend className="px-1 text-sm font-medium">Generation settings</legend>
            <p className="text-xs text-muted-foreground">Leave a field empty for the model's own default.</p>
            <div className="grid gap-4 sm:grid-cols-2">
              {NUMBER_FIELDS.map((field) => (
                <FormField key={field.key} id={`connection-${field.key}`} label={field.label} hint={field.hint} error={errors[field.key]}>
                  {(describedBy) => (
                    <Input
                      id={`connection-${field.key}`}
                      type="number"
                      inputMode="decimal"
                      step={field.step}
                      min={SETTING_BOUNDS[field.key].min}
                      max={SETTING_BOUNDS[field.key].max}
                      value={values.settings[field.key]}
                      onChange={(e) => setSetting(field.key, e.target.value)}
                      aria-invalid={errors[field.key] ? true : undefined}
                      aria-describedby={describedBy}
                    />
                  )}
                </FormField>
              ))}
            </div>
            <FormField
              id="connection-stop"
              label="Stop strings"
              hint="One per line, at most 8; the reply ends before any of them. Write \n for a line break."
              error={errors.stop}
            >
              {(describedBy) => (
                <Textarea
                  id="connection-stop"
                  rows={2}
                  spellCheck={false}
                  value={values.settings.stop}
                  onChange={(e) => setSetting("stop", e.target.value)}
                  aria-invalid={errors.stop ? true : undefined}
                  aria-describedby={describedBy}
                />
              )}
            </FormField>
          </fieldset>

          <div className="flex items-center justify-between gap-4 rounded-xl border border-border bg-surface/40 p-4">
            <label htmlFor="connection-default" className="text-sm">
              <span className="block font-medium">Use by default</span>
              <span className="block text-xs text-muted-foreground">Writes every chat that has not picked another model.</span>
            </label>
            <Switch id="connection-default" checked={values.isDefault} onCheckedChange={(checked) => set("isDefault", checked)} />
          </div>

          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" disabled={isPending}>
              {isPending && <LoaderCircle aria-hidden="true" className="animate-spin" />}
              {isEdit ? "Save Changes" : "Add Connection"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
