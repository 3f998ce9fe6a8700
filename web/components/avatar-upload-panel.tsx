/**
 * The avatar upload panel (SPEC.md §2, §7, §8): Uppy's Dashboard inline, with
 * SPEC.md's restrictions (one image, at most 10 MB), its progress bar and its
 * own messages ("Upload failed", the restriction notices). Files go with a
 * plain PUT of the raw bytes to a URL asked for per file, then get registered
 * (web/lib/avatar-upload.ts). Loaded lazily by the avatar field: Uppy, Preact and
 * the panel's CSS stay out of every other page.
 */
import Uppy, { type Body, type Meta, type UppyFile } from "@uppy/core";
import Dashboard from "@uppy/dashboard";
import XHRUpload from "@uppy/xhr-upload";
import "@uppy/core/css/style.min.css";
import "@uppy/dashboard/css/style.min.css";
import "./avatar-upload-panel.css";
import { useEffect, useRef } from "react";
import { serverErrorText } from "../lib/api-client.ts";
import {
  AVATAR_RESTRICTIONS,
  createAvatarUploadFlow,
  createUploadUrl,
  isRetryableUploadStatus,
  registerAvatar,
  uploadResponseBody,
} from "../lib/avatar-upload.ts";
import { toast } from "./ui/use-toast.ts";

interface AvatarUploadPanelProps {
  /** Called with the registered avatar's `/objects/…` path. */
  onUploaded: (objectPath: string) => void;
  /** Panel height, px. */
  height?: number;
}

export function AvatarUploadPanel({ onUploaded, height = 260 }: AvatarUploadPanelProps) {
  const targetRef = useRef<HTMLDivElement>(null);
  const onUploadedRef = useRef(onUploaded);
  useEffect(() => {
    onUploadedRef.current = onUploaded;
  }, [onUploaded]);

  useEffect(() => {
    const target = targetRef.current;
    if (!target) return;
    const flow = createAvatarUploadFlow({ createUploadUrl, registerAvatar });
    const uppy = new Uppy<Meta, Body>({ id: "avatar", autoProceed: true, restrictions: AVATAR_RESTRICTIONS });

    uppy.use(Dashboard, {
      inline: true,
      target,
      width: "100%",
      height,
      theme: "dark",
      proudlyDisplayPoweredByUppy: false,
      showRemoveButtonAfterComplete: true,
      note: "One image (PNG, JPEG, WebP or GIF), up to 10 MB",
    });
    uppy.use(XHRUpload, {
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
      getResponseData: (xhr) => uploadResponseBody(xhr.responseText),
      shouldRetry: (xhr) => isRetryableUploadStatus(xhr.status),
    });

    const register = async (file: UppyFile<Meta, Body> | undefined) => {
      if (!file) return;
      try {
        const objectPath = await flow.register(file.id);
        onUploadedRef.current(objectPath);
        toast({ title: "Success!", description: "Avatar uploaded successfully" });
      } catch {
        toast({ title: "Error", description: "Failed to set avatar URL", variant: "destructive" });
      }
    };
    uppy.on("upload-success", (file) => void register(file));
    uppy.on("file-removed", (file) => flow.forget(file.id));

    return () => uppy.destroy();
  }, [height]);

  return <div ref={targetRef} className="avatar-upload-panel" />;
}
