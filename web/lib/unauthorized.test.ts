import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TOASTER_WAIT_MS, UNAUTHORIZED_REDIRECT_DELAY_MS, unauthorizedMessage } from "./unauthorized.ts";

/** Fresh copies of the modules (their toaster state starts unloaded), so the tests do not depend on their order. */
async function freshModules() {
  vi.resetModules();
  const { markToasterMounted } = await import("../components/ui/use-toast.ts");
  const { notifyUnauthorized } = await import("./unauthorized.ts");
  return { markToasterMounted, notifyUnauthorized };
}

describe("unauthorizedMessage", () => {
  it("says what needs a sign-in, in SPEC.md §8's words", () => {
    expect(unauthorizedMessage("vote")).toBe("You need to log in to vote. Redirecting...");
    expect(unauthorizedMessage("comment")).toBe("You need to log in to comment. Redirecting...");
    expect(unauthorizedMessage("favorite")).toBe("You need to log in to favorite. Redirecting...");
    expect(unauthorizedMessage("report")).toBe("You need to log in to report. Redirecting...");
    expect(unauthorizedMessage("start a chat")).toBe("You need to log in to start a chat. Redirecting...");
    expect(unauthorizedMessage("import a chat")).toBe("You need to log in to import a chat. Redirecting...");
    expect(unauthorizedMessage("view this conversation")).toBe(
      "You need to log in to view this conversation. Redirecting...",
    );
  });
});

describe("notifyUnauthorized", () => {
  const location = { href: "http://localhost/character/1" };
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal("window", { location });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("a toaster that never loads does not keep the visitor: the redirect comes TOASTER_WAIT_MS later", async () => {
    const { notifyUnauthorized } = await freshModules();
    notifyUnauthorized("comment");
    vi.advanceTimersByTime(TOASTER_WAIT_MS + UNAUTHORIZED_REDIRECT_DELAY_MS - 1);
    expect(location.href).toBe("http://localhost/character/1");
    vi.advanceTimersByTime(1);
    expect(location.href).toBe("/api/login");
    location.href = "http://localhost/character/1";
  });

  it("before the toaster has loaded, the 500 ms start when it appears", async () => {
    const { markToasterMounted, notifyUnauthorized } = await freshModules();
    notifyUnauthorized("vote");
    vi.advanceTimersByTime(2_000);
    expect(location.href).toBe("http://localhost/character/1");
    markToasterMounted();
    vi.advanceTimersByTime(499);
    expect(location.href).toBe("http://localhost/character/1");
    vi.advanceTimersByTime(1);
    expect(location.href).toBe("/api/login");
    location.href = "http://localhost/character/1";
  });

  it("navigates to /api/login 500 ms after the toast, not before", async () => {
    const { markToasterMounted, notifyUnauthorized } = await freshModules();
    markToasterMounted();
    expect(UNAUTHORIZED_REDIRECT_DELAY_MS).toBe(500);
    notifyUnauthorized("vote");
    vi.advanceTimersByTime(499);
    expect(location.href).toBe("http://localhost/character/1");
    vi.advanceTimersByTime(1);
    expect(location.href).toBe("/api/login");
    location.href = "http://localhost/character/1";
  });
});
