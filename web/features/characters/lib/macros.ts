/**
 * Character-card text macros for display (schema/macros.ts): `{{user}}`
 * becomes "User", the default persona name of roleplay front ends
 * (SillyTavern). "User" rather than "you" because cards use the macro in the
 * third person ("{{user}} has just moved in").
 */
import { replaceMacros } from "../../../../schema/macros.ts";

export const DEFAULT_PERSONA_NAME = "User";

export function fillMacros(text: string, characterName: string, personaName = DEFAULT_PERSONA_NAME): string {
  return replaceMacros(text, characterName, personaName);
}
