/**
 * Character-card text macros, one definition for every place a card's text is
 * shown or sent: prompts and the stored greeting (durable-objects/), and the
 * character page (web/). `{{char}}` (also the older `<BOT>`) becomes the
 * character's name and `{{user}}` (also `<USER>`) the person's; matching
 * ignores case, as SillyTavern's does. Names are inserted as they are (a `$`
 * in a name is not a replacement pattern).
 */
export function replaceMacros(text: string, characterName: string, userName: string): string {
  return text.replace(/\{\{char\}\}|<bot>/gi, () => characterName).replace(/\{\{user\}\}|<user>/gi, () => userName);
}
