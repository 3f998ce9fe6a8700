/**
 * Uppy's uploader for this site's pictures (avatars, expressions,
 * backgrounds): each file goes as a plain PUT of its raw bytes to an upload
 * URL asked for per file and per retry (web/lib/avatar-upload.ts
 * `createAvatarUploadFlow`), then the caller registers it on
 * `upload-success`. Imported only by the lazily loaded upload panels, so
 * Uppy stays out of every other page.
 */
import type { Body, Meta, Uppy } from "@uppy/core";
import XHRUpload from "@uppy/xhr-upload";
import { serverErrorText } from "./api-client.ts";
import { type AvatarUploadFlow, isRetryableUploadStatus, uploadResponseBody } from "./avatar-upload.ts";

/**
 * Sets `uppy` to upload through `flow`'s upload URLs. A file whose URL
 * cannot be had fails in the panel with the server's message (SPEC.md §8)
 * rather than counting as uploaded; a failed PUT is retried when
 * isRetryableUploadStatus says so.
 */
export function addPresignedPut<M extends Meta, B extends Body>(uppy: Uppy<M, B>, flow: AvatarUploadFlow): void {
  uppy.use(XHRUpload<M, B>, {
    method: "PUT",
    formData: false,
    // One fresh upload URL per file (and per retry: an old one may have expired).
    endpoint: async (fileOrFiles) => {
      const file = Array.isArray(fileOrFiles) ? fileOrFiles[0]! : fileOrFiles;
      try {
        return await flow.endpointFor(file.id);
      } catch (error) {
        // The uploader only reports errors of the PUT itself; without this the
        // file would count as uploaded.
        const reason = new Error(serverErrorText(error) ?? "Could not start the upload");
        uppy.emit("upload-error", uppy.getFile(file.id), reason);
        throw reason;
      }
    },
    // A presigned R2 PUT answers with an empty body, not the JSON Uppy expects.
    getResponseData: (xhr) => uploadResponseBody(xhr.responseText) as B,
    shouldRetry: (xhr) => isRetryableUploadStatus(xhr.status),
  });
}
