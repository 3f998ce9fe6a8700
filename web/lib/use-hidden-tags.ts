/**
 * The person's hidden tags as the app applies them (docs/decisions/0011-tag-filters.md):
 * this browser's list (lib/hidden-tags.ts, in localStorage) is what every
 * list request sends as `excludeTags`. For a signed-in person it is a copy of
 * the account's list (`GET /api/profile/hidden-tags`), refreshed when the
 * account answers; a visitor's list is merged into the account on sign-in.
 * Changes apply at once and are saved with `PUT /api/profile/hidden-tags`
 * when signed in; a failed save puts the list back and says so in a toast.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useSyncExternalStore } from "react";
import { toast } from "../components/ui/use-toast.ts";
import { apiQueryFn, apiSend } from "./api-client.ts";
import type { ApiResponse } from "./api-types.ts";
import { useUser } from "./auth.ts";
import {
  HIDDEN_TAGS_STORAGE_KEY,
  NO_HIDDEN_TAGS,
  type StoredHiddenTags,
  parseStoredHiddenTags,
  reconcileHiddenTags,
  sameTags,
  toggleHiddenTag,
} from "./hidden-tags.ts";

const listeners = new Set<() => void>();
/** Used when localStorage cannot be written (private modes, full quota): the list lasts for the page. */
let memory: string | null = null;
let cache: { raw: string | null; value: StoredHiddenTags } = { raw: null, value: NO_HIDDEN_TAGS };

function readRaw(): string | null {
  try {
    return window.localStorage.getItem(HIDDEN_TAGS_STORAGE_KEY) ?? memory;
  } catch {
    return memory;
  }
}

/** The stored list; the same object while the stored text is unchanged (useSyncExternalStore needs that). */
function readStored(): StoredHiddenTags {
  const raw = readRaw();
  if (raw !== cache.raw) cache = { raw, value: parseStoredHiddenTags(raw) };
  return cache.value;
}

function writeStored(value: StoredHiddenTags): void {
  const raw = JSON.stringify(value);
  memory = raw;
  try {
    window.localStorage.setItem(HIDDEN_TAGS_STORAGE_KEY, raw);
  } catch {
    // memory holds it
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab of the same browser changed the list.
  const onStorage = (event: StorageEvent) => {
    if (event.key === HIDDEN_TAGS_STORAGE_KEY) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

export const hiddenTagsQueryOptions = () =>
  queryOptions({
    queryKey: ["/api/profile/hidden-tags"],
    queryFn: apiQueryFn("/api/profile/hidden-tags", { on401: "returnNull" }),
  });

/** `PUT /api/profile/hidden-tags` with the whole list; resolves to the list as stored. Throws the SPEC.md §8 error. */
export async function saveHiddenTags(tags: string[]): Promise<string[]> {
  return (await apiSend("put", "/api/profile/hidden-tags", { body: { tags } })).tags;
}

export interface HiddenTagsValue {
  /** Lower-case, sorted: what list requests send as `excludeTags`. */
  hiddenTags: string[];
  /** Hides `tag`, or shows it again when hidden; returns the new list. */
  toggleHiddenTag: (tag: string) => string[];
}

export function useHiddenTags(): HiddenTagsValue {
  const queryClient = useQueryClient();
  const { user, isLoading } = useUser();
  const userId = user?.id ?? null;
  const stored = useSyncExternalStore(subscribe, readStored, () => NO_HIDDEN_TAGS);
  const account = useQuery({ ...hiddenTagsQueryOptions(), enabled: userId !== null });
  const save = useMutation({
    mutationFn: saveHiddenTags,
    onSuccess: (tags) => {
      const saved: ApiResponse<"/api/profile/hidden-tags"> = { tags };
      queryClient.setQueryData(hiddenTagsQueryOptions().queryKey, saved);
    },
  });
  const { mutate } = save;

  // Once it is known who is here (and, signed in, what the account hides), settle this browser's list.
  const accountTags = account.data?.tags;
  useEffect(() => {
    if (isLoading || (userId !== null && accountTags === undefined)) return;
    const current = readStored();
    const { local, save: merged } = reconcileHiddenTags(current, userId, accountTags ?? []);
    if (local.owner !== current.owner || !sameTags(local.tags, current.tags)) writeStored(local);
    if (merged) mutate(merged);
  }, [isLoading, userId, accountTags, mutate]);

  const toggle = useCallback(
    (tag: string) => {
      const before = readStored();
      const tags = toggleHiddenTag(before.tags, tag);
      writeStored({ ...before, tags });
      if (userId !== null) {
        mutate(tags, {
          onError: () => {
            writeStored(before);
            toast({ title: "Error", description: "Failed to update hidden tags", variant: "destructive" });
          },
        });
      }
      return tags;
    },
    [userId, mutate],
  );

  return { hiddenTags: stored.tags, toggleHiddenTag: toggle };
}
