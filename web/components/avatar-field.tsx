/**
 * An avatar field (SPEC.md §2: "avatar (upload, or avatarUrl)"), used by the
 * character form and the persona dialog: a preview of the current picture,
 * the upload panel, and the avatarUrl itself, which an upload fills in and
 * which also takes a pasted https link.
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
  /** The picture `value` shows, or its fallback, filling the preview frame. */
  preview: ReactNode;
  /** The preview frame's shape and size, e.g. "aspect-[3/4] w-32 rounded-xl". */
  previewClassName: string;
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
  hint = "Filled in for you after an upload. You can also paste an https:// link to an image. Leave empty for a generated picture.",
}: AvatarFieldProps) {
  return (
    <fieldset className="space-y-4">
      <legend className="text-sm font-medium">Avatar</legend>
      <div className="flex flex-col gap-4 sm:flex-row">
        <div className="flex shrink-0 flex-col items-center gap-2">
          <div className={cn("relative overflow-hidden border border-border bg-surface", previewClassName)}>{preview}</div>
          {value.trim() && (
            <Button variant="ghost" size="sm" onClick={() => onChange("")} className="text-muted-foreground">
              <ImageOff aria-hidden="true" /> Remove avatar
            </Button>
          )}
        </div>
        <div className="min-w-0 flex-1" aria-label="Avatar upload" role="group">
          <Suspense fallback={<Skeleton className="w-full rounded-xl" style={{ height: panelHeight }} />}>
            <AvatarUploadPanel onUploaded={onChange} height={panelHeight} />
          </Suspense>
        </div>
      </div>
      <FormField id={id} label="Avatar URL (Optional)" hint={hint} error={error}>
        {(describedBy) => (
          <Input
            id={id}
            name="avatarUrl"
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
