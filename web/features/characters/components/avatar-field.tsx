/**
 * The Create/Edit Character form's avatar (SPEC.md §2: "avatar (upload, or
 * avatarUrl)"): a preview of the current picture, the upload panel, and the
 * avatarUrl itself, which an upload fills in and which also takes a pasted
 * https link.
 */
import { ImageOff } from "lucide-react";
import { Suspense, lazy } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { FormField } from "../../../components/ui/form-field.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { CharacterAvatar } from "./character-avatar.tsx";

// Uppy (core, Dashboard, Preact, its CSS) loads only when a form shows the panel.
const AvatarUploadPanel = lazy(() => import("./avatar-upload-panel.tsx").then((m) => ({ default: m.AvatarUploadPanel })));

const PANEL_HEIGHT = 260;

interface AvatarFieldProps {
  value: string;
  onChange: (avatarUrl: string) => void;
  error?: string;
  /** For the fallback picture: the character's id (0 while creating) and name. */
  characterId: number;
  name: string;
}

export function AvatarField({ value, onChange, error, characterId, name }: AvatarFieldProps) {
  const preview = value.trim();
  return (
    <fieldset className="space-y-4">
      <legend className="text-sm font-medium">Avatar</legend>
      <div className="flex flex-col gap-4 sm:flex-row">
        <div className="flex shrink-0 flex-col items-center gap-2 sm:w-40">
          <div className="relative aspect-[3/4] w-32 overflow-hidden rounded-xl border border-border bg-surface sm:w-40">
            <CharacterAvatar
              id={characterId}
              name={name.trim() || "New character"}
              avatarUrl={preview || null}
              priority
              initialClassName="text-4xl"
            />
          </div>
          {preview && (
            <Button variant="ghost" size="sm" onClick={() => onChange("")} className="text-muted-foreground">
              <ImageOff aria-hidden="true" /> Remove avatar
            </Button>
          )}
        </div>
        <div className="min-w-0 flex-1" aria-label="Avatar upload" role="group">
          <Suspense fallback={<Skeleton className="w-full rounded-xl" style={{ height: PANEL_HEIGHT }} />}>
            <AvatarUploadPanel onUploaded={onChange} height={PANEL_HEIGHT} />
          </Suspense>
        </div>
      </div>
      <FormField
        id="character-avatarUrl"
        label="Avatar URL (Optional)"
        hint="Filled in for you after an upload. You can also paste an https:// link to an image. Leave empty for a generated picture."
        error={error}
      >
        {(describedBy) => (
          <Input
            id="character-avatarUrl"
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
