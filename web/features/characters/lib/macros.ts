/**
 * Character-card text macros for display: `{{char}}` (also `<BOT>`) becomes the
 * character's name and `{{user}}` (also `<USER>`) becomes "User", the default
 * persona name of roleplay front ends (SillyTavern). "User" rather than "you"
 * because cards use the macro in the third person ("{{user}} has just moved
 * in"). Matching ignores case.
 */
export const DEFAULT_PERSONA_NAME = "User";

export function fillMacros(text: string, characterName: string, personaName = DEFAULT_PERSONA_NAME): string {
  return text.replace(/\{\{char\}\}|<bot>/gi, () => characterName).replace(/\{\{user\}\}|<user>/gi, () => personaName);
}
