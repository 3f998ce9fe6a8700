/**
 * `GET /api/conversations?limit=&offset=` ("My Chats"): the signed-in
 * person's conversations, latest activity first, each with its character's
 * name and avatar and a preview of the last message. Refetched whenever the
 * page is entered, since chatting moves conversations to the top.
 */
import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { apiGet } from "../../../lib/api-client.ts";

/** Conversations per page. */
export const CONVERSATIONS_PAGE_SIZE = 30;

/** One page from `offset`; throws the SPEC.md §8 error (`401: …` for visitors). */
export function getConversations(offset: number, limit = CONVERSATIONS_PAGE_SIZE) {
  return apiGet("/api/conversations", { query: `limit=${limit}&offset=${offset}` });
}

export const conversationsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: ["/api/conversations", { limit: CONVERSATIONS_PAGE_SIZE }],
    queryFn: ({ pageParam }) => getConversations(pageParam),
    initialPageParam: 0,
    // A full page may have more after it; a short one is the last.
    getNextPageParam: (last, pages) =>
      last.length < CONVERSATIONS_PAGE_SIZE ? undefined : pages.length * CONVERSATIONS_PAGE_SIZE,
    staleTime: 0,
    refetchOnMount: "always",
  });

/** The list, asked only when `signedIn`. */
export function useConversations(signedIn: boolean) {
  return useInfiniteQuery({ ...conversationsQueryOptions(), enabled: signedIn });
}
