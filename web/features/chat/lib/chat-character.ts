/** The character as the chat page shows it (header, bubbles, typing indicator). */
export interface ChatCharacter {
  id: number;
  name: string;
  avatarUrl: string | null;
  /** The creator's handle without "@"; null when the character could not be read. */
  creator: string | null;
}

/** The avatar letter without a picture: the name's first letter or digit, upper case; "?" without one. */
export function characterInitial(name: string): string {
  const letter = name.trim().match(/[\p{L}\p{N}]/u)?.[0];
  return letter ? letter.toLocaleUpperCase() : "?";
}
