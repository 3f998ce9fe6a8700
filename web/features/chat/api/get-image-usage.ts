/**
 * `GET /api/images/usage` (DESIGN.md "Pictures"): the pictures the person
 * made today (UTC) of the day's limit, the limit a minute, and which
 * generator paints (`offline`: the UI says so). Refreshed after each picture.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiGet } from "../../../lib/api-client.ts";

export const IMAGE_USAGE_KEY = ["/api/images/usage"] as const;

/** Throws the SPEC.md §8 error (`401: …` signed out). */
export function getImageUsage() {
  return apiGet("/api/images/usage");
}

export const imageUsageQueryOptions = () => queryOptions({ queryKey: IMAGE_USAGE_KEY, queryFn: getImageUsage });

export function useImageUsage(enabled = true) {
  return useQuery({ ...imageUsageQueryOptions(), enabled });
}
