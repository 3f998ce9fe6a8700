import { describe, expect, it } from "vitest";
import {
  AVATAR_RESTRICTIONS,
  createAvatarUploadFlow,
  isRetryableUploadStatus,
  uploadResponseBody,
} from "./avatar-upload.ts";

describe("AVATAR_RESTRICTIONS", () => {
  it("allow one image of at most 10,485,760 bytes (SPEC.md §5)", () => {
    expect(AVATAR_RESTRICTIONS).toEqual({ maxNumberOfFiles: 1, maxFileSize: 10_485_760, allowedFileTypes: ["image/*"] });
  });
});

describe("isRetryableUploadStatus", () => {
  it("retries 408, 409, 418, 423 and 429", () => {
    for (const status of [408, 409, 418, 423, 429]) expect(isRetryableUploadStatus(status)).toBe(true);
  });

  it("retries 5xx except 501 and 505", () => {
    for (const status of [500, 502, 503, 504, 507, 599]) expect(isRetryableUploadStatus(status)).toBe(true);
    expect(isRetryableUploadStatus(501)).toBe(false);
    expect(isRetryableUploadStatus(505)).toBe(false);
  });

  it("retries a request that got no answer at all", () => {
    expect(isRetryableUploadStatus(0)).toBe(true);
  });

  it("does not retry other client errors or successes", () => {
    for (const status of [200, 204, 400, 401, 403, 404, 413, 415, 422, 600]) expect(isRetryableUploadStatus(status)).toBe(false);
  });
});

describe("uploadResponseBody", () => {
  it("parses the Worker upload URL's JSON answer", () => {
    expect(uploadResponseBody('{"key":"avatars/u/1","size":12}')).toEqual({ key: "avatars/u/1", size: 12 });
  });

  it("turns R2's empty or XML answer, and JSON that is not an object, into {}", () => {
    expect(uploadResponseBody("")).toEqual({});
    expect(uploadResponseBody("<?xml version='1.0'?><Result/>")).toEqual({});
    expect(uploadResponseBody("[1]")).toEqual({});
    expect(uploadResponseBody("null")).toEqual({});
  });
});

describe("createAvatarUploadFlow", () => {
  function fakeApi() {
    let n = 0;
    const registered: string[] = [];
    return {
      registered,
      createUploadUrl: async () => ({ uploadURL: `/api/objects/upload/avatars/u/${++n}?token=t${n}` }),
      registerAvatar: async (avatarURL: string) => {
        registered.push(avatarURL);
        return { objectPath: `/objects/${new URL(avatarURL, "http://x").pathname.replace("/api/objects/upload/", "")}` };
      },
    };
  }

  it("asks for an upload URL per file, then registers the URL that file was sent to", async () => {
    const api = fakeApi();
    const flow = createAvatarUploadFlow(api);
    const a = await flow.endpointFor("file-a");
    const b = await flow.endpointFor("file-b");
    expect(a).toBe("/api/objects/upload/avatars/u/1?token=t1");
    expect(b).toBe("/api/objects/upload/avatars/u/2?token=t2");
    await expect(flow.register("file-b")).resolves.toBe("/objects/avatars/u/2");
    expect(api.registered).toEqual([b]);
  });

  it("uses a fresh URL when a file is retried", async () => {
    const api = fakeApi();
    const flow = createAvatarUploadFlow(api);
    await flow.endpointFor("file");
    const retry = await flow.endpointFor("file");
    await flow.register("file");
    expect(api.registered).toEqual([retry]);
  });

  it("refuses to register a file it never gave a URL for, or one forgotten or already registered", async () => {
    const flow = createAvatarUploadFlow(fakeApi());
    await expect(flow.register("unknown")).rejects.toThrow("This file was not uploaded");
    await flow.endpointFor("removed");
    flow.forget("removed");
    await expect(flow.register("removed")).rejects.toThrow();
    await flow.endpointFor("done");
    await flow.register("done");
    await expect(flow.register("done")).rejects.toThrow();
  });

  it("passes the API's errors on", async () => {
    const flow = createAvatarUploadFlow({
      createUploadUrl: async () => {
        throw new Error('401: {"error":"Unauthorized"}');
      },
      registerAvatar: async () => ({ objectPath: "" }),
    });
    await expect(flow.endpointFor("f")).rejects.toThrow("401: ");
  });
});
