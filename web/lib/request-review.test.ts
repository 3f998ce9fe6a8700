/**
 * Which errors the refusal notice reads (web/lib/request-review.ts): a 422
 * `content_refused` is a refusal that may be reviewed, with its reasons from
 * the error's `issues`; anything else is not.
 */
import { describe, expect, it } from "vitest";
import { isContentRefusal, refusalReasons } from "./request-review.ts";

const clientError = (status: number, body: unknown) => new Error(`${status}: ${JSON.stringify(body)}`);

describe("refusals", () => {
  it("a 422 content_refused is a refusal; its reasons are the issues' sentences in order", () => {
    const error = clientError(422, {
      error: "This character can't be saved.",
      code: "content_refused",
      issues: [
        { path: "scenario", message: 'The scenario says "is 13" …' },
        { path: "characterBook.entries.1.content", message: "Lorebook entry 2 says …" },
      ],
    });
    expect(isContentRefusal(error)).toBe(true);
    expect(refusalReasons(error)).toEqual(['The scenario says "is 13" …', "Lorebook entry 2 says …"]);
  });

  it("a validation error, another 422, a page that is not JSON and a plain error are not", () => {
    expect(isContentRefusal(clientError(400, { error: "x", code: "validation_failed" }))).toBe(false);
    expect(isContentRefusal(clientError(422, { error: "x", code: "unprocessable" }))).toBe(false);
    expect(isContentRefusal(new Error("422: <html>"))).toBe(false);
    expect(isContentRefusal(new Error("network down"))).toBe(false);
  });
});
