/**
 * `GET /api/voices`: the voices this site offers (the default first) and
 * whether speech to text is available (the `Fabled-Transcription` header;
 * worker/routes/voices.ts). Shared: the character form picks a voice
 * (features/characters), the chat composer shows its microphone button
 * only where speech to text is available (features/chat).
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest, apiUrl } from "./api-client.ts";
import type { ApiResponse } from "./api-types.ts";

export type Voice = ApiResponse<"/api/voices">[number];

export interface VoicesInfo {
  voices: Voice[];
  /** `POST /api/transcriptions` answers (a speech-to-text provider is set). */
  transcription: boolean;
}

/** Throws the SPEC.md §8 error on a non-OK answer. */
export async function getVoices(): Promise<VoicesInfo> {
  const res = await apiRequest("GET", apiUrl("/api/voices"));
  return { voices: (await res.json()) as Voice[], transcription: res.headers.get("Fabled-Transcription") === "available" };
}

export const voicesQueryOptions = () =>
  queryOptions({
    queryKey: ["/api/voices"],
    queryFn: getVoices,
    // The deployment's configuration: it does not change while a page is open.
    staleTime: Infinity,
  });

export function useVoices() {
  return useQuery(voicesQueryOptions());
}
