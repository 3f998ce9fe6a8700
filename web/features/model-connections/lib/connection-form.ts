/**
 * The connection dialog's values and checks: the shared schema
 * (schema/model-connections.ts; the server says the same messages), one
 * message per field. Number settings are typed as text and sent as numbers;
 * empty means "the model's own default". Stop strings are one per line.
 */
import {
  type ModelConnection,
  type ModelConnectionInput,
  modelConnectionInputSchema,
  type ModelConnectionKind,
  type ModelSettings,
  SETTINGS_MODELS_WORDS,
} from "../../../../schema/model-connections.ts";

/** The number settings, in the order the form shows them. */
export const NUMBER_SETTINGS = ["temperature", "topP", "maxTokens", "contextTokens", "frequencyPenalty"] as const;
export type NumberSetting = (typeof NUMBER_SETTINGS)[number];

export interface ConnectionFormValues {
  name: string;
  kind: ModelConnectionKind;
  baseUrl: string;
  /** Typed key; "" keeps the saved one when editing. */
  apiKey: string;
  model: string;
  /** The endpoint's embedding model for memory; "" for none (the site's embedder). */
  embeddingModel: string;
  /** The endpoint's image model for pictures (`/images/generations`); "" for none (the site's generator). */
  imageModel: string;
  settings: Record<NumberSetting, string> & { stop: string };
  isDefault: boolean;
}

export type ConnectionFormField = "name" | "kind" | "baseUrl" | "apiKey" | "model" | "embeddingModel" | "imageModel" | "isDefault" | NumberSetting | "stop";
export type ConnectionFormErrors = Partial<Record<ConnectionFormField, string>>;

/** Starting values: `connection`'s when editing (never its key); else an OpenAI-compatible endpoint, default when it is the first. */
export function connectionFormValues(connection: ModelConnection | null, isFirst: boolean): ConnectionFormValues {
  const settings = connection?.settings ?? {};
  const text = (value: number | undefined) => (value === undefined ? "" : String(value));
  return {
    name: connection?.name ?? "",
    kind: connection?.kind ?? "openai",
    baseUrl: connection?.baseUrl ?? "",
    apiKey: "",
    model: connection?.model ?? "",
    embeddingModel: connection?.embeddingModel ?? "",
    imageModel: connection?.imageModel ?? "",
    settings: {
      temperature: text(settings.temperature),
      topP: text(settings.topP),
      maxTokens: text(settings.maxTokens),
      contextTokens: text(settings.contextTokens),
      frequencyPenalty: text(settings.frequencyPenalty),
      stop: (settings.stop ?? []).join("\n"),
    },
    isDefault: connection?.isDefault ?? isFirst,
  };
}

/** The settings as sent: numbers where a number was typed (anything else is sent as typed, for the schema's message). */
function settingsOf(values: ConnectionFormValues["settings"]): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const key of NUMBER_SETTINGS) {
    const raw = values[key].trim();
    if (raw === "") continue;
    const n = Number(raw);
    settings[key] = Number.isFinite(n) ? n : raw;
  }
  const stop = values.stop
    .split("\n")
    .map((line) => line.replace(/\\n/g, "\n"))
    .filter((line) => line.trim() !== "");
  if (stop.length > 0) settings.stop = stop;
  return settings;
}

/**
 * The body to send, or the first message of each refused field. When
 * editing (`keepKey`), an empty key field is left out: the saved key stays.
 */
export function validateConnectionForm(
  values: ConnectionFormValues,
  keepKey: boolean,
): { data: (ModelConnectionInput & { settings: ModelSettings }) | null; errors: ConnectionFormErrors } {
  const site = values.kind === "site";
  const body: Record<string, unknown> = {
    name: values.name,
    kind: values.kind,
    model: values.model,
    settings: settingsOf(values.settings),
    isDefault: values.isDefault,
  };
  if (!site) {
    body.baseUrl = values.baseUrl;
    body.embeddingModel = values.embeddingModel;
    body.imageModel = values.imageModel;
    if (values.apiKey.trim() !== "" || !keepKey) body.apiKey = values.apiKey.trim() === "" ? null : values.apiKey;
  }
  const result = modelConnectionInputSchema.safeParse(body);
  if (result.success) {
    const data = { ...result.data };
    if (!("apiKey" in body)) delete data.apiKey;
    return { data, errors: {} };
  }
  return { data: null, errors: issuesToConnectionErrors(result.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }))) };
}

const FIELDS: readonly string[] = ["name", "kind", "baseUrl", "apiKey", "model", "embeddingModel", "imageModel", "isDefault"];

/** A 400's `issues` as messages under the fields they name (`settings.topP` → topP); others are left to the toast. */
export function issuesToConnectionErrors(issues: readonly { path: string; message: string }[]): ConnectionFormErrors {
  const errors: ConnectionFormErrors = {};
  for (const { path, message } of issues) {
    const [head, sub] = path.split(".");
    if (head === "settings" && sub && ([...NUMBER_SETTINGS, "stop"] as string[]).includes(sub)) errors[sub as ConnectionFormField] ??= message;
    else if (head && FIELDS.includes(head)) errors[head as ConnectionFormField] ??= message;
  }
  return errors;
}


/**
 * Where "Test connection"'s failure `text` (ai/model-connection.ts
 * `endpointFailureText`) shows in the dialog: by the API key when the
 * endpoint refused the key (401, 403) or the key could not be read, else by
 * the base URL; without "in Settings → Models", which the person is on.
 */
export function placeTestFailure(text: string): { field: "baseUrl" | "apiKey"; text: string } {
  const field = /answered 40[13]\b|API key/.test(text) ? "apiKey" : "baseUrl";
  return { field, text: text.replace(` in ${SETTINGS_MODELS_WORDS}`, "") };
}
