/**
 * The Unauthorized flow of SPEC.md §8: a destructive "Unauthorized" toast
 * saying what needs a sign-in, then a full-page navigation to the sign-in path
 * 500 ms later (long enough to see why the page changes). The 500 ms count
 * from when the toast can be seen: the toaster's code loads after the first
 * render, and a click before it arrived must not navigate away unseen.
 * Features call it when a visitor tries a signed-in action or the server
 * answers 401.
 */
import { toast, whenToastsVisible } from "../components/ui/use-toast.ts";
import { redirectToLogin } from "./auth.ts";

/** Delay between the toast and the navigation to /api/login, ms (SPEC.md §9). */
export const UNAUTHORIZED_REDIRECT_DELAY_MS = 500;
/** Longest wait for the toaster's code before redirecting anyway, ms. */
export const TOASTER_WAIT_MS = 5_000;

/** What the visitor tried, in the words of SPEC.md §8's toast texts. */
export type SignedInAction =
  | "vote"
  | "comment"
  | "favorite"
  | "report"
  | "start a chat"
  | "import a chat"
  | "view this conversation"
  | "follow creators"
  | "fork a character";

/** "You need to log in to {action}. Redirecting..." */
export function unauthorizedMessage(action: SignedInAction): string {
  return `You need to log in to ${action}. Redirecting...`;
}

/** Shows the Unauthorized toast for `action`, then navigates to /api/login 500 ms after it can be seen. */
export function notifyUnauthorized(action: SignedInAction): void {
  toast({ title: "Unauthorized", description: unauthorizedMessage(action), variant: "destructive" });
  whenToastsVisible(() => setTimeout(redirectToLogin, UNAUTHORIZED_REDIRECT_DELAY_MS), TOASTER_WAIT_MS);
}
