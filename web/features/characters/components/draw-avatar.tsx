/**
 * "Draw an avatar" (DESIGN.md "Pictures"), beside the avatar upload in the
 * studio: a description (prefilled from the character's appearance or
 * description) gives a picture to use or to draw again. "Use this picture"
 * puts it in the avatar field; the usual save keeps it. When the offline
 * painter draws, it says so.
 */
import { Check, Paintbrush, RefreshCw } from "lucide-react";
import { useState } from "react";
import { MAX_AVATAR_DESCRIPTION_LENGTH } from "../../../../schema/inputs.ts";
import { Button } from "../../../components/ui/button.tsx";
import { FormField } from "../../../components/ui/form-field.tsx";
import { Textarea } from "../../../components/ui/textarea.tsx";
import { serverErrorText } from "../../../lib/api-client.ts";
import { useDrawAvatar } from "../api/draw-avatar.ts";

interface DrawAvatarProps {
  /** What the description starts as (the character's appearance, else its description). */
  initialDescription: string;
  /** The drawn picture's path becomes the avatar. */
  onAccept: (objectPath: string) => void;
}

export function DrawAvatar({ initialDescription, onAccept }: DrawAvatarProps) {
  const [open, setOpen] = useState(false);
  const [description, setDescription] = useState(initialDescription);
  const draw = useDrawAvatar();
  const drawn = draw.data;
  if (!open) {
    return (
      <Button
        variant="secondary"
        size="sm"
        onClick={() => {
          setDescription((now) => now || initialDescription);
          setOpen(true);
        }}
      >
        <Paintbrush aria-hidden="true" /> Draw an avatar
      </Button>
    );
  }
  const submit = () => {
    const text = description.trim();
    if (text) draw.mutate(text);
  };
  return (
    <div className="space-y-3 rounded-xl border border-border p-3" role="group" aria-label="Draw an avatar">
      <FormField
        id="draw-avatar-description"
        label="Describe how they look"
        hint="Face, hair, clothes, mood, style. The picture is yours to use or to draw again."
        error={draw.error ? (serverErrorText(draw.error) ?? "The avatar could not be drawn. Please try again.") : undefined}
      >
        {(describedBy) => (
          <Textarea
            id="draw-avatar-description"
            aria-describedby={describedBy}
            rows={3}
            maxLength={MAX_AVATAR_DESCRIPTION_LENGTH}
            value={description}
            placeholder="A retired sky-pirate with a grey braid and a scar over one eye, warm smile, painterly"
            onChange={(event) => setDescription(event.target.value)}
          />
        )}
      </FormField>
      {drawn && (
        <div className="flex flex-col items-start gap-2 sm:flex-row sm:items-end">
          <img src={drawn.objectPath} alt={`Drawn avatar: ${description.trim()}`} width={160} height={160} className="size-40 rounded-xl border border-border object-cover" />
          <div className="space-y-2">
            {drawn.provider === "offline" && (
              <p className="max-w-xs text-xs text-muted-foreground">Drawn by the offline painter: shapes and colours from your words, not an image model.</p>
            )}
            <Button size="sm" onClick={() => onAccept(drawn.objectPath)}>
              <Check aria-hidden="true" /> Use this picture
            </Button>
          </div>
        </div>
      )}
      <div className="flex gap-2">
        <Button size="sm" variant={drawn ? "secondary" : "default"} disabled={draw.isPending || !description.trim()} onClick={submit}>
          {drawn ? <RefreshCw aria-hidden="true" /> : <Paintbrush aria-hidden="true" />}
          {draw.isPending ? "Drawing…" : drawn ? "Try again" : "Draw"}
        </Button>
        <Button size="sm" variant="ghost" onClick={() => setOpen(false)}>
          Close
        </Button>
      </div>
    </div>
  );
}
