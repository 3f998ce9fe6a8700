/**
 * The chat input grows with its text between 44 and 120 px (SPEC.md §2
 * "Chat", §9); past the maximum it scrolls.
 */

/** Chat input height bounds, px (SPEC.md §9). */
export const CHAT_INPUT_MIN_HEIGHT_PX = 44;
export const CHAT_INPUT_MAX_HEIGHT_PX = 120;

/**
 * The height to give the input for content `scrollHeight` px tall (as the
 * browser measures it with the height set to `auto`), and whether it must
 * scroll because the content is taller than the maximum.
 */
export function chatInputHeight(scrollHeight: number): { heightPx: number; scrolls: boolean } {
  const heightPx = Math.min(Math.max(Math.ceil(scrollHeight), CHAT_INPUT_MIN_HEIGHT_PX), CHAT_INPUT_MAX_HEIGHT_PX);
  return { heightPx, scrolls: scrollHeight > CHAT_INPUT_MAX_HEIGHT_PX };
}

/** Fits `textarea` to its content within the bounds; call after every change of its value. */
export function fitChatInput(textarea: HTMLTextAreaElement): void {
  textarea.style.height = "auto";
  const { heightPx, scrolls } = chatInputHeight(textarea.scrollHeight);
  textarea.style.height = `${heightPx}px`;
  textarea.style.overflowY = scrolls ? "auto" : "hidden";
}

/** Back to one line (after sending). */
export function resetChatInput(textarea: HTMLTextAreaElement): void {
  textarea.style.height = `${CHAT_INPUT_MIN_HEIGHT_PX}px`;
  textarea.style.overflowY = "hidden";
}
