/**
 * `GET /api/profile/sessions`: the signed-in person's devices, this one
 * first (DESIGN.md turn 4 "Your account, your data").
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiGet } from "../../../lib/api-client.ts";

/** Throws the SPEC.md §8 error (`401: …` once signed out). */
export function getSessions() {
  return apiGet("/api/profile/sessions");
}

export const sessionsQueryOptions = () => queryOptions({ queryKey: ["/api/profile/sessions"], queryFn: getSessions });

export function useSessions() {
  return useQuery(sessionsQueryOptions());
}
