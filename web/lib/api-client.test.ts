import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type FetchLike,
  apiGet,
  apiQueryFn,
  apiRequest,
  apiSend,
  apiSendUnread,
  apiUrl,
  errorStatus,
  getQueryFn,
  isUnauthorizedError,
  serverErrorIssues,
  serverErrorText,
} from "./api-client.ts";

interface Call {
  url: string;
  init: RequestInit | undefined;
}

/** A fetch that records calls and answers with `respond()`. */
function stubFetch(respond: () => Response): FetchLike & { calls: Call[] } {
  const calls: Call[] = [];
  const fn = async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    return respond();
  };
  return Object.assign(fn, { calls });
}

const queryContext = (queryKey: readonly unknown[]) =>
  ({ queryKey, signal: new AbortController().signal, meta: undefined, client: undefined }) as never;

describe("apiRequest", () => {
  it("sends credentials and a JSON body with a JSON content type", async () => {
    const fetch = stubFetch(() => new Response("{}", { status: 200 }));
    await apiRequest("POST", "/api/characters/3/comments", { content: "hi" }, fetch);
    const { url, init } = fetch.calls[0]!;
    expect(url).toBe("/api/characters/3/comments");
    expect(init?.method).toBe("POST");
    expect(init?.credentials).toBe("include");
    expect(new Headers(init?.headers).get("content-type")).toBe("application/json");
    expect(init?.body).toBe('{"content":"hi"}');
  });

  it("sends no body and no content type without data", async () => {
    const fetch = stubFetch(() => new Response(null, { status: 204 }));
    await apiRequest("POST", "/api/characters/3/favorite", undefined, fetch);
    const { init } = fetch.calls[0]!;
    expect(init?.body).toBeUndefined();
    expect(new Headers(init?.headers).has("content-type")).toBe(false);
    expect(init?.credentials).toBe("include");
  });

  it("turns a non-OK answer into '<status>: <body text>'", async () => {
    const body = '{"error":"Character not found","code":"not_found"}';
    const fetch = stubFetch(() => new Response(body, { status: 404, statusText: "Not Found" }));
    await expect(apiRequest("GET", "/api/characters/9", undefined, fetch)).rejects.toThrow(`404: ${body}`);
  });

  it("uses the status text when the body is empty", async () => {
    const fetch = stubFetch(() => new Response("", { status: 502, statusText: "Bad Gateway" }));
    await expect(apiRequest("GET", "/api/tags", undefined, fetch)).rejects.toThrow(/^502: Bad Gateway$/);
  });
});

describe("apiUrl", () => {
  it("fills each :param URI-encoded and appends the query", () => {
    expect(apiUrl("/api/conversations/:id/messages/:messageId/rating", { params: { id: "a/b", messageId: "m 1" } })).toBe(
      "/api/conversations/a%2Fb/messages/m%201/rating",
    );
    expect(apiUrl("/api/characters/:id/comments", { params: { id: 7 } })).toBe("/api/characters/7/comments");
    expect(apiUrl("/api/conversations", { query: "limit=30&offset=0" })).toBe("/api/conversations?limit=30&offset=0");
    expect(apiUrl("/api/personas", { query: "" })).toBe("/api/personas");
  });

  it("only takes routes the Worker declares, with their :params", () => {
    // @ts-expect-error: no such route
    expect(() => apiUrl("/api/nothing-here")).not.toThrow();
    // @ts-expect-error: the route's :id is missing
    expect(() => apiUrl("/api/characters/:id")).toThrow("No value for :id of /api/characters/:id");
  });
});

describe("apiGet", () => {
  it("parses the JSON of an OK answer", async () => {
    const fetch = stubFetch(() => Response.json({ characters: [], total: 0 }));
    await expect(apiGet("/api/characters", { fetchImpl: fetch })).resolves.toEqual({ characters: [], total: 0 });
  });

  it("GETs the filled path with credentials", async () => {
    const fetch = stubFetch(() => Response.json({ isFavorited: true }));
    const status = await apiGet("/api/characters/:id/favorite", { params: { id: 3 }, fetchImpl: fetch });
    expect(fetch.calls[0]!.url).toBe("/api/characters/3/favorite");
    expect(fetch.calls[0]!.init?.method).toBe("GET");
    expect(fetch.calls[0]!.init?.credentials).toBe("include");
    expect(status).toEqual({ isFavorited: true });
  });

  it("types the answer as the route's handler answers", () => {
    expectTypeOf(apiGet<"/api/characters/:id/favorite">).returns.resolves.toEqualTypeOf<{ isFavorited: boolean }>();
    expectTypeOf(apiGet<"/api/profile/hidden-tags">).returns.resolves.toEqualTypeOf<{ tags: string[] }>();
  });
});

describe("apiSend", () => {
  it("sends the JSON body to the filled path and parses the answer", async () => {
    const fetch = stubFetch(() => Response.json({ tags: ["gore"] }));
    const saved = await apiSend("put", "/api/profile/hidden-tags", { body: { tags: ["Gore"] }, fetchImpl: fetch });
    const { url, init } = fetch.calls[0]!;
    expect(url).toBe("/api/profile/hidden-tags");
    expect(init?.method).toBe("PUT");
    expect(init?.credentials).toBe("include");
    expect(new Headers(init?.headers).get("content-type")).toBe("application/json");
    expect(init?.body).toBe('{"tags":["Gore"]}');
    expect(saved.tags).toEqual(["gore"]);
  });

  it("takes only the body the route validates", () => {
    const fetch = stubFetch(() => Response.json({}));
    // @ts-expect-error: the route's body is `{ tags: string[] }`
    void apiSend("put", "/api/profile/hidden-tags", { body: { tag: "gore" }, fetchImpl: fetch });
  });

  it("apiSendUnread resolves without reading an answer that is not JSON", async () => {
    const fetch = stubFetch(() => new Response(null, { status: 204 }));
    await expect(
      apiSendUnread("delete", "/api/comments/:id", { params: { id: 12 }, fetchImpl: fetch }),
    ).resolves.toBeUndefined();
    expect(fetch.calls[0]!.url).toBe("/api/comments/12");
    expect(fetch.calls[0]!.init?.method).toBe("DELETE");
  });

  it("throws the SPEC.md §8 error of a refused write", async () => {
    const body = '{"error":"Comment not found","code":"not_found"}';
    const fetch = stubFetch(() => new Response(body, { status: 404 }));
    await expect(apiSendUnread("delete", "/api/comments/:id", { params: { id: 12 }, fetchImpl: fetch })).rejects.toThrow(
      `404: ${body}`,
    );
  });
});

describe("apiQueryFn", () => {
  it("GETs its route and returns null on 401 when asked to", async () => {
    const fetch = stubFetch(() => new Response("Unauthorized", { status: 401 }));
    await expect(apiQueryFn("/api/auth/user", { on401: "returnNull" }, fetch)(queryContext(["/api/auth/user"]))).resolves.toBeNull();
    expect(fetch.calls[0]!.url).toBe("/api/auth/user");
    expect(fetch.calls[0]!.init?.credentials).toBe("include");
  });
});

describe("isUnauthorizedError", () => {
  it("recognises the error of a 401 answer", async () => {
    const fetch = stubFetch(() => Response.json({ error: "Unauthorized", code: "unauthorized" }, { status: 401 }));
    const error = await apiRequest("GET", "/api/my-characters", undefined, fetch).catch((e: unknown) => e);
    expect(isUnauthorizedError(error)).toBe(true);
  });

  it("needs both the 401 prefix and the word Unauthorized", () => {
    expect(isUnauthorizedError(new Error("401: Unauthorized"))).toBe(true);
    expect(isUnauthorizedError(new Error("403: Unauthorized"))).toBe(false);
    expect(isUnauthorizedError(new Error("401: session expired"))).toBe(false);
    expect(isUnauthorizedError(new Error("x 401: Unauthorized"))).toBe(false);
    expect(isUnauthorizedError("401: Unauthorized")).toBe(false);
  });
});

describe("getQueryFn", () => {
  it("joins the query key with slashes to make the path", async () => {
    const fetch = stubFetch(() => Response.json({ id: 7 }));
    const result = await getQueryFn({ on401: "throw" }, fetch)(queryContext(["/api/characters", 7]));
    expect(fetch.calls[0]!.url).toBe("/api/characters/7");
    expect(fetch.calls[0]!.init?.credentials).toBe("include");
    expect(result).toEqual({ id: 7 });
  });

  it("returns null on 401 when asked to", async () => {
    const fetch = stubFetch(() => new Response("Unauthorized", { status: 401 }));
    await expect(getQueryFn({ on401: "returnNull" }, fetch)(queryContext(["/api/auth/user"]))).resolves.toBeNull();
  });

  it("throws the 401 error otherwise", async () => {
    const fetch = stubFetch(() => new Response('{"error":"Unauthorized"}', { status: 401 }));
    await expect(getQueryFn({ on401: "throw" }, fetch)(queryContext(["/api/auth/user"]))).rejects.toThrow(
      '401: {"error":"Unauthorized"}',
    );
  });

  it("throws other failures even when 401 yields null", async () => {
    const fetch = stubFetch(() => new Response("", { status: 404, statusText: "Not Found" }));
    await expect(getQueryFn({ on401: "returnNull" }, fetch)(queryContext(["/api/auth/user"]))).rejects.toThrow(
      "404: Not Found",
    );
  });
});

describe("errorStatus and serverErrorText", () => {
  it("read the status and the JSON error sentence of a failed call", async () => {
    const body = { error: "This username is already taken. Please choose another one.", code: "conflict" };
    const fetch = stubFetch(() => Response.json(body, { status: 409 }));
    const error = await apiRequest("PUT", "/api/profile", {}, fetch).catch((e: unknown) => e);
    expect(errorStatus(error)).toBe(409);
    expect(serverErrorText(error)).toBe(body.error);
  });

  it("give null when there is no status or no JSON error sentence", () => {
    expect(errorStatus(new Error("Failed to fetch"))).toBeNull();
    expect(errorStatus("409: x")).toBeNull();
    expect(serverErrorText(new Error("502: Bad Gateway"))).toBeNull();
    expect(serverErrorText(new Error('400: {"code":"validation_failed"}'))).toBeNull();
    expect(serverErrorText(new Error('400: {"error":""}'))).toBeNull();
    expect(serverErrorText(new Error("Failed to fetch"))).toBeNull();
  });
});

describe("serverErrorIssues", () => {
  it("reads the field issues of a validation failure", async () => {
    const body = {
      error: "Description is too long",
      code: "validation_failed",
      issues: [
        { path: "description", message: "Description is too long" },
        { path: "tags.0", message: "Tags must be at least 2 characters" },
      ],
    };
    const fetch = stubFetch(() => Response.json(body, { status: 400 }));
    const error = await apiRequest("POST", "/api/characters", {}, fetch).catch((e: unknown) => e);
    expect(serverErrorIssues(error)).toEqual(body.issues);
  });

  it("gives [] without issues, for malformed ones it skips them", () => {
    expect(serverErrorIssues(new Error('403: {"error":"Only the creator","code":"forbidden"}'))).toEqual([]);
    expect(serverErrorIssues(new Error("502: Bad Gateway"))).toEqual([]);
    expect(serverErrorIssues(new Error("Failed to fetch"))).toEqual([]);
    expect(serverErrorIssues(new Error('400: {"issues":[{"path":1},null,{"path":"name","message":"x"}]}'))).toEqual([
      { path: "name", message: "x" },
    ]);
  });
});
