/**
 * The avatar upload panel (SPEC.md §2, §7, §8): Uppy's Dashboard inline, with
 * SPEC.md's restrictions (one image, at most 10 MB), its progress bar and its
 * own messages ("Upload failed", the restriction notices). Files go with a
 * plain PUT of the raw bytes to a URL asked for per file
 * (web/lib/presigned-put.ts), then get registered (web/lib/avatar-upload.ts).
 * Loaded lazily by the avatar field: Uppy, Preact and the panel's CSS stay
 * out of every other page.
 */
import Uppy, { type Body, type Meta, type UppyFile } from "@uppy/core";
import Dashboard from "@uppy/dashboard";
import "@uppy/core/css/style.min.css";
import "@uppy/dashboard/css/style.min.css";
import "./avatar-upload-panel.css";
import { useEffect, useRef } from "react";
import { AVATAR_RESTRICTIONS, createAvatarUploadFlow, createUploadUrl, registerAvatar } from "../lib/avatar-upload.ts";
import { addPresignedPut } from "../lib/presigned-put.ts";
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
    addPresignedPut(uppy, flow);

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
