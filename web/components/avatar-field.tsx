/**
 * An avatar field (SPEC.md §2: "avatar (upload, or avatarUrl)"), used by the
 * character form, the persona dialog and Edit Profile (its profile picture):
 * a preview of the current picture (when the form has none of its own), the
 * upload panel, and the URL itself, which an upload fills in and which also
 * takes a pasted https link.
 */
import { ImageOff } from "lucide-react";
import { type ReactNode, Suspense, lazy } from "react";
import { cn } from "../lib/utils.ts";
import { Button } from "./ui/button.tsx";
import { FormField } from "./ui/form-field.tsx";
import { Input } from "./ui/input.tsx";
import { Skeleton } from "./ui/skeleton.tsx";

// Uppy (core, Dashboard, Preact, its CSS) loads only when a form shows the panel.
const AvatarUploadPanel = lazy(() => import("./avatar-upload-panel.tsx").then((m) => ({ default: m.AvatarUploadPanel })));

interface AvatarFieldProps {
  /** Id of the URL input ("character-avatarUrl"); its label, hint and message hang off it. */
  id: string;
  value: string;
  onChange: (avatarUrl: string) => void;
  error?: string;
  /** The picture `value` shows, or its fallback, filling the preview frame; none when the form shows the picture elsewhere. */
  preview?: ReactNode;
  /** The preview frame's shape and size, e.g. "aspect-[3/4] w-32 rounded-xl". */
  previewClassName?: string;
  /** The group's name (default "Avatar"). */
  legend?: string;
  /** The URL input's label (default "Avatar URL (Optional)"). */
  label?: string;
  /** The URL input's form name (default "avatarUrl"). */
  name?: string;
  /** Upload panel height, px. */
  panelHeight?: number;
  hint?: ReactNode;
}

export function AvatarField({
  id,
  value,
  onChange,
  error,
  preview,
  previewClassName,
  panelHeight = 260,
  legend = "Avatar",
  label = "Avatar URL (Optional)",
  name = "avatarUrl",
  hint = "Filled in for you after an upload. You can also paste an https:// link to an image. Leave empty for a generated picture.",
}: AvatarFieldProps) {
  return (
    <fieldset className="space-y-4">
      <legend className="text-sm font-medium">{legend}</legend>
      <div className="flex flex-col gap-4 sm:flex-row">
        {(preview !== undefined || value.trim()) && (
          <div className="flex shrink-0 flex-col items-center gap-2">
            {preview !== undefined && (
              <div className={cn("relative overflow-hidden border border-border bg-surface", previewClassName)}>{preview}</div>
            )}
            {value.trim() && (
              <Button variant="ghost" size="sm" onClick={() => onChange("")} className="text-muted-foreground">
                <ImageOff aria-hidden="true" /> Remove {legend.toLowerCase()}
              </Button>
            )}
          </div>
        )}
        <div className="min-w-0 flex-1" aria-label={`${legend} upload`} role="group">
          <Suspense fallback={<Skeleton className="w-full rounded-xl" style={{ height: panelHeight }} />}>
            <AvatarUploadPanel onUploaded={onChange} height={panelHeight} />
          </Suspense>
        </div>
      </div>
      <FormField id={id} label={label} hint={hint} error={error}>
        {(describedBy) => (
          <Input
            id={id}
            name={name}
            inputMode="url"
            autoComplete="off"
            placeholder="https://example.com/avatar.png"
            value={value}
            onChange={(e) => onChange(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
          />
        )}
      </FormField>
    </fieldset>
  );
}
