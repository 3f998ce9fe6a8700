/**
 * What a member of a shared room is told before their persona leaves them
 * (issue 42, docs/decisions/0025): the room's model is the owner's choice —
 * their own model connection, if they use one — and it is sent the
 * persona's name and description with every reply to the member. Said on
 * the join page and in the persona picker.
 */
export function personaNote(ownerName: string): string {
  return `${ownerName}'s chosen model — their own, if they use one — receives your persona's name and description. With no persona, it gets only your name.`;
}

