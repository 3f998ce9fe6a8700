/**
 * Character-card text macros for display: `{{char}}` (also `<BOT>`) becomes the
 * character's name and `{{user}}` (also `<USER>`) becomes "You", as roleplay
 * front ends show them. Matching ignores case.
 */
export function fillMacros(text: string, characterName: string): string {
  return text.replace(/\{\{char\}\}|<bot>/gi, characterName).replace(/\{\{user\}\}|<user>/gi, "You");
}
