/**
 * Toast store (shadcn pattern) with the limits of SPEC.md §9: one toast shown
 * at a time (a new one replaces it); a dismissed toast is closed at once and
 * removed from the store 1,000,000 ms later. Display time, swipe and the F8
 * hotkey are the Radix provider's (toast.tsx).
 */
import { type ReactNode, useSyncExternalStore } from "react";

/** Toasts shown at once. */
export const TOAST_LIMIT = 1;
/** Delay between dismissing a toast and removing it from the store, ms. */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

export interface ToastData {
  id: string;
  title?: ReactNode;
  description?: ReactNode;
  variant?: "default" | "destructive";
  /** Display time in ms; the provider's 5 s when omitted. */
  duration?: number;
  open: boolean;
}

export interface ToastState {
  toasts: ToastData[];
}

export type ToastAction =
  | { type: "add"; toast: ToastData }
  | { type: "update"; toast: Partial<ToastData> & { id: string } }
  | { type: "dismiss"; toastId?: string }
  | { type: "remove"; toastId?: string };

/** Pure store transition: newest first, at most TOAST_LIMIT kept; dismiss closes, remove deletes. */
export function toastReducer(state: ToastState, action: ToastAction): ToastState {
  switch (action.type) {
    case "add":
      return { toasts: [action.toast, ...state.toasts].slice(0, TOAST_LIMIT) };
    case "update":
      return { toasts: state.toasts.map((t) => (t.id === action.toast.id ? { ...t, ...action.toast } : t)) };
    case "dismiss":
      return {
        toasts: state.toasts.map((t) =>
          action.toastId === undefined || t.id === action.toastId ? { ...t, open: false } : t,
        ),
      };
    case "remove":
      return { toasts: action.toastId === undefined ? [] : state.toasts.filter((t) => t.id !== action.toastId) };
  }
}

let memoryState: ToastState = { toasts: [] };
const listeners = new Set<(state: ToastState) => void>();
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>();
let count = 0;

function dispatch(action: ToastAction) {
  if (action.type === "dismiss") {
    const ids = action.toastId === undefined ? memoryState.toasts.map((t) => t.id) : [action.toastId];
    for (const id of ids) scheduleRemoval(id);
  }
  memoryState = toastReducer(memoryState, action);
  for (const listener of listeners) listener(memoryState);
}

function scheduleRemoval(id: string) {
  if (removeTimers.has(id)) return;
  removeTimers.set(
    id,
    setTimeout(() => {
      removeTimers.delete(id);
      dispatch({ type: "remove", toastId: id });
    }, TOAST_REMOVE_DELAY_MS),
  );
}

export type ToastInput = Omit<ToastData, "id" | "open">;

/** Shows a toast, e.g. `toast({ title: "Error", description: "Failed to post comment", variant: "destructive" })`. */
export function toast(input: ToastInput) {
  count = (count + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(count);
  dispatch({ type: "add", toast: { ...input, id, open: true } });
  return {
    id,
    dismiss: () => dispatch({ type: "dismiss", toastId: id }),
    update: (next: ToastInput) => dispatch({ type: "update", toast: { ...next, id } }),
  };
}

let toasterMounted = false;
const mountWaiters = new Set<() => void>();

/** Called by the Toaster once mounted: toasts given before it loaded are now on screen. */
export function markToasterMounted(): void {
  toasterMounted = true;
  for (const waiter of [...mountWaiters]) waiter();
}

/**
 * Calls `callback` once toasts can be seen: at once when the Toaster is
 * mounted, else when it mounts (its code loads after the first render), or
 * after `maxWaitMs` at the latest (ms). For what must follow a visible toast,
 * such as the Unauthorized redirect.
 */
export function whenToastsVisible(callback: () => void, maxWaitMs: number): void {
  if (toasterMounted) {
    callback();
    return;
  }
  const run = () => {
    clearTimeout(timer);
    if (!mountWaiters.delete(run)) return;
    callback();
  };
  const timer = setTimeout(run, maxWaitMs);
  mountWaiters.add(run);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => memoryState;

/** A toast has been given since the page loaded (the Toaster's code is then wanted). */
const toastsWanted = () => count > 0;

/**
 * True once any toast has been given: the app mounts the Toaster (and loads
 * its code, Radix toast) only then, so a first visit that shows no toast never
 * downloads it (docs/decisions/0004-first-visit-budget.md). The toast waits in
 * the store meanwhile.
 */
export function useToastsWanted(): boolean {
  return useSyncExternalStore(subscribe, toastsWanted, () => false);
}

/**
 * The current toasts, plus `toast` and `dismiss`. Read through
 * `useSyncExternalStore`, so a toast given between the Toaster's first render
 * and its subscription (its code loads lazily) is not missed.
 */
export function useToast() {
  const state = useSyncExternalStore(subscribe, snapshot, snapshot);
  return {
    ...state,
    toast,
    dismiss: (toastId?: string) => dispatch({ type: "dismiss", toastId }),
  };
}
