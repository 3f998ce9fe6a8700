/**
 * The username field of Edit Profile (SPEC.md §4 "Username availability",
 * §5): the "@" prefix and the availability states.
 */

/** The input as stored: "@" added in front when missing; an empty input stays empty. */
export function withAtPrefix(input: string): string {
  if (input === "" || input.startsWith("@")) return input;
  return `@${input}`;
}

export type UsernameAvailability = "unknown" | "checking" | "available" | "taken";

/** Availability is asked for every change, unless the name is empty or still the person's own. */
export function shouldCheckUsername(username: string, current: string): boolean {
  return username !== "" && username !== current;
}

interface AvailabilityInput {
  /** What the field holds now. */
  username: string;
  /** The person's saved username. */
  current: string;
  /** The name the last check was sent for (the input, once typing pauses). */
  checked: string;
  /** That check's state. */
  check: { isFetching: boolean; isError: boolean; data: { available: boolean } | undefined };
}

/**
 * The indicator's state: unknown for an empty or unchanged name (and after a
 * failed check, which is only logged); checking while typing goes on or the
 * answer is awaited; then available or taken.
 */
export function usernameAvailability({ username, current, checked, check }: AvailabilityInput): UsernameAvailability {
  if (!shouldCheckUsername(username, current)) return "unknown";
  if (checked !== username || check.isFetching) return "checking";
  if (check.isError || !check.data) return "unknown";
  return check.data.available ? "available" : "taken";
}

/** Saving is blocked while the name is known to be taken and differs from the person's own. */
export function isSaveBlocked(availability: UsernameAvailability, username: string, current: string): boolean {
  return availability === "taken" && username !== current;
}
