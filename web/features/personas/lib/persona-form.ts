/**
 * The persona dialog's values and checks: the shared schema (the server says
 * the same messages), one message per field.
 */
import type { Persona } from "../../../../schema/api.ts";
import { type PersonaInput, personaInputSchema } from "../../../../schema/inputs.ts";

export interface PersonaFormValues {
  name: string;
  description: string;
  /** "" for none. */
  avatarUrl: string;
  isDefault: boolean;
}

export type PersonaFormField = keyof PersonaFormValues;
export type PersonaFormErrors = Partial<Record<PersonaFormField, string>>;

/**
 * The form's starting values: `persona`'s when editing; empty when creating,
 * with the default switch on when it is the person's first persona (the
 * server would make it the default anyway).
 */
export function personaFormValues(persona: Persona | null, isFirst: boolean): PersonaFormValues {
  if (!persona) return { name: "", description: "", avatarUrl: "", isDefault: isFirst };
  return {
    name: persona.name,
    description: persona.description,
    avatarUrl: persona.avatarUrl ?? "",
    isDefault: persona.isDefault,
  };
}

/** The body to send, or the first message of each refused field. */
export function validatePersonaForm(values: PersonaFormValues): { data: PersonaInput | null; errors: PersonaFormErrors } {
  const result = personaInputSchema.safeParse(values);
  if (result.success) return { data: result.data, errors: {} };
  return { data: null, errors: issuesToPersonaErrors(result.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }))) };
}

const FIELDS: readonly string[] = ["name", "description", "avatarUrl", "isDefault"] satisfies PersonaFormField[];

/** A 400's `issues` (DESIGN.md "Errors") as messages under the fields they name; others are left to the toast. */
export function issuesToPersonaErrors(issues: readonly { path: string; message: string }[]): PersonaFormErrors {
  const errors: PersonaFormErrors = {};
  for (const { path, message } of issues) {
    if (FIELDS.includes(path)) errors[path as PersonaFormField] ??= message;
  }
  return errors;
}

/** The letter shown without a picture: the name's first letter or digit, upper case; "?" when it has none. */
export function personaInitial(name: string): string {
  const letter = name.trim().match(/[\p{L}\p{N}]/u)?.[0];
  return letter ? letter.toLocaleUpperCase() : "?";
}
