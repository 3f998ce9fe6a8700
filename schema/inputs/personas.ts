/**
 * The input schemas of personas, who a person is in a chat (schema/inputs.ts
 * re-exports them).
 */
import { z } from "zod";
import { MAX_PERSONA_DESCRIPTION_LENGTH, MAX_PERSONA_NAME_LENGTH } from "../constants.ts";
import { visibleName } from "../names.ts";
import { avatarUrlSchema, requiredText } from "./fields.ts";

/** The fields of a persona a person writes; defaults are added by personaInputSchema. */
const personaFields = {
  name: requiredText(
    "Name",
    1,
    "Persona name is required",
    MAX_PERSONA_NAME_LENGTH,
    `Name is too long (at most ${MAX_PERSONA_NAME_LENGTH} characters)`,
  ).refine(...visibleName),
  description: z
    .string({ error: "Description must be text" })
    .trim()
    .max(
      MAX_PERSONA_DESCRIPTION_LENGTH,
      `Description is too long (at most ${MAX_PERSONA_DESCRIPTION_LENGTH.toLocaleString("en-US")} characters)`,
    ),
  avatarUrl: avatarUrlSchema,
  isDefault: z.boolean({ error: "isDefault must be true or false" }),
};

/**
 * Persona dialog and `POST /api/personas`: a name (trimmed, 1–50
 * characters), a description (trimmed, at most 2,000, default ""), an
 * optional avatar (the rule of a character's avatarUrl) and whether it
 * becomes the default.
 */
export const personaInputSchema = z.object({
  ...personaFields,
  description: personaFields.description.default(""),
  isDefault: personaFields.isDefault.optional(),
});
export type PersonaInput = z.output<typeof personaInputSchema>;

/**
 * `PUT /api/personas/:id`: any of the fields (a field left out keeps its
 * value), at least one. `isDefault: false` on the default leaves the person
 * without one.
 */
export const personaUpdateSchema = z
  .object(personaFields)
  .partial()
  .refine((fields) => Object.values(fields).some((value) => value !== undefined), {
    error: "Nothing to change: send a name, description, avatarUrl or isDefault",
  });
export type PersonaUpdate = z.output<typeof personaUpdateSchema>;
