/**
 * Signing devices out: `DELETE /api/profile/sessions/{id}` (one) and
 * `DELETE /api/profile/sessions` (every one but this) → 204. Success
 * refreshes the list.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSendUnread } from "../../../lib/api-client.ts";
import { sessionsQueryOptions } from "./get-sessions.ts";

/** Throws the SPEC.md §8 error: `404` "Session not found" for one already ended. */
export async function endSession(id: string): Promise<void> {
  await apiSendUnread("delete", "/api/profile/sessions/:id", { params: { id } });
}

export async function endOtherSessions(): Promise<void> {
  await apiSendUnread("delete", "/api/profile/sessions");
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey }),
  });
}

export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endOtherSessions,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey }),
  });
}
