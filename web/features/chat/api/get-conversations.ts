/**
 * `GET /api/conversations?limit=&offset=&q=&characterId=` ("My Chats"): the
 * signed-in person's conversations, latest message first, each with its
 * character's name and avatar and a preview of the last message; `q` keeps
 * those whose title or character name contains it. Refetched whenever the
 * page is entered, since chatting moves conversations to the top.
 */
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { apiGet } from "../../../lib/api-client.ts";

/** Conversations per page. */
export const CONVERSATIONS_PAGE_SIZE = 30;

/** One page from `offset`, only those matching `q` when given; throws the SPEC.md §8 error (`401: …` for visitors). */
export function getConversations(offset: number, limit = CONVERSATIONS_PAGE_SIZE, q = "") {
  const search = q.trim() ? `&q=${encodeURIComponent(q.trim())}` : "";
  return apiGet("/api/conversations", { query: `limit=${limit}&offset=${offset}${search}` });
}

/** Every cached list of My Chats (any search) starts with this key: invalidate it after a rename or a delete. */
export const CONVERSATIONS_KEY = ["/api/conversations", "list"] as const;

export const conversationsQueryOptions = (q = "") =>
  infiniteQueryOptions({
    queryKey: [...CONVERSATIONS_KEY, { limit: CONVERSATIONS_PAGE_SIZE, q: q.trim() }],
    queryFn: ({ pageParam }) => getConversations(pageParam, CONVERSATIONS_PAGE_SIZE, q),
    initialPageParam: 0,
    // A full page may have more after it; a short one is the last.
    getNextPageParam: (last, pages) =>
      last.length < CONVERSATIONS_PAGE_SIZE ? undefined : pages.length * CONVERSATIONS_PAGE_SIZE,
    staleTime: 0,
    refetchOnMount: "always",
  });

/** The list (matching `q`), asked only when `signedIn`; the previous results stay shown while a new search loads. */
export function useConversations(signedIn: boolean, q = "") {
  return useInfiniteQuery({ ...conversationsQueryOptions(q), enabled: signedIn, placeholderData: (previous) => previous });
}

/**
 * The person's latest conversation with `characterId` (`?characterId=&limit=1`),
 * or null when they have none; throws the SPEC.md §8 error.
 */
export async function getLatestConversationWith(characterId: number) {
  const [latest] = await apiGet("/api/conversations", { query: `characterId=${characterId}&limit=1` });
  return latest ?? null;
}

export const latestConversationQueryOptions = (characterId: number) =>
  queryOptions({
    queryKey: [...CONVERSATIONS_KEY, { characterId, limit: 1 }],
    queryFn: () => getLatestConversationWith(characterId),
    staleTime: 0,
  });

/** The character page's "Continue chat": asked only for a signed-in person. */
export function useLatestConversationWith(characterId: number, signedIn: boolean) {
  return useQuery({ ...latestConversationQueryOptions(characterId), enabled: signedIn });
}
