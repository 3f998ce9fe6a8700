/**
 * "Expressions and backgrounds" of Edit Character (DESIGN.md "Character
 * assets"): many pictures at once in Uppy's Dashboard, each labelled from
 * its file name (editable in the Dashboard before uploading), then a grid of
 * what the character has, each with its label and a Delete button. Uploading
 * a label the character already has replaces that picture. An expression
 * other than the neutral one has "Use as neutral" (a star): its picture
 * becomes the neutral face too (shown when a reply's label has no picture;
 * `PUT /api/characters/{id}/neutral-expression`), and the neutral tile wears
 * a filled star. Backgrounds work the same way. Files go through the avatar upload flow
 * (web/lib/avatar-upload.ts), then `POST /api/characters/{id}/assets`.
 * Loaded lazily with Uppy (web/features/characters/components/lazy…).
 */
import Uppy, { type Body, type Meta } from "@uppy/core";
import Dashboard from "@uppy/dashboard";
import "@uppy/core/css/style.min.css";
import "@uppy/dashboard/css/style.min.css";
import "../../../components/avatar-upload-panel.css";
import { useQueryClient } from "@tanstack/react-query";
import { Star, Trash2 } from "lucide-react";
import { useEffect, useRef } from "react";
import type { Character, CharacterAsset } from "../../../../schema/api.ts";
import { MAX_UPLOAD_BYTES } from "../../../../schema/constants.ts";
import { Button } from "../../../components/ui/button.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { serverErrorText } from "../../../lib/api-client.ts";
import { createAvatarUploadFlow, createUploadUrl, registerAvatar } from "../../../lib/avatar-upload.ts";
import { addPresignedPut } from "../../../lib/presigned-put.ts";
import { addCharacterAsset, useDeleteCharacterAsset, useSetNeutralExpression } from "../api/character-assets.ts";
import { labelFromFileName } from "../lib/expression-label.ts";

type Kind = "emotion" | "background";

const COPY: Record<Kind, { title: string; help: string; label: string; note: string }> = {
  emotion: {
    title: "Expressions",
    help: "One picture per emotion. The chat shows the one that fits each reply, and the neutral one when none fits (the star makes a picture the neutral one). Name files after the emotion (joy.png, anger.png) or edit the label before uploading.",
    label: "Emotion label",
    note: "PNG, JPEG, WebP or GIF, up to 10 MB each",
  },
  background: {
    title: "Backgrounds",
    help: "Scenes people can set behind the chat.",
    label: "Background name",
    note: "PNG, JPEG, WebP or GIF, up to 10 MB each",
  },
};

export function ExpressionsSection({ character }: { character: Character }) {
  return (
    <section aria-labelledby="assets-heading" className="mt-10 rounded-xl border border-border bg-card p-4 md:p-6">
      <h2 id="assets-heading" className="text-xl font-semibold">
        Expressions and backgrounds
      </h2>
      <AssetKind character={character} kind="emotion" />
      <AssetKind character={character} kind="background" />
    </section>
  );
}

function AssetKind({ character, kind }: { character: Character; kind: Kind }) {
  const copy = COPY[kind];
  const assets = character.assets.filter((asset) => asset.type === kind);
  const remove = useDeleteCharacterAsset(character.id);
  const setNeutral = useSetNeutralExpression(character.id);
  return (
    <div className="mt-6">
      <h3 className="font-medium">{copy.title}</h3>
      <p className="mt-1 text-sm text-muted-foreground">{copy.help}</p>
      {assets.length > 0 ? (
        <ul aria-label={copy.title} className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3 md:grid-cols-4">
          {assets.map((asset) => (
            <AssetTile
              key={`${asset.type}/${asset.name}`}
              asset={asset}
              kind={kind}
              deleting={remove.isPending && remove.variables?.name === asset.name}
              onDelete={() =>
                remove.mutate(asset, {
                  onError: (error) => toast({ title: "Error", description: serverErrorText(error) ?? "Could not delete the picture", variant: "destructive" }),
                })
              }
              onUseAsNeutral={
                kind === "emotion" && !isNeutral(asset)
                  ? () =>
                      setNeutral.mutate(asset.name, {
                        onSuccess: () => toast({ title: `${asset.name} is now the neutral expression` }),
                        onError: (error) => toast({ title: "Error", description: serverErrorText(error) ?? "Could not change the neutral expression", variant: "destructive" }),
                      })
                  : undefined
              }
              settingNeutral={setNeutral.isPending}
            />
          ))}
        </ul>
      ) : (
        <p className="mt-3 text-sm text-muted-foreground">{kind === "emotion" ? "No expressions yet." : "No backgrounds yet."}</p>
      )}
      <AssetUploader characterId={character.id} kind={kind} />
    </div>
  );
}

/** The chat's fallback face is the expression named neutral, in any case (web/features/chat/lib/expressions.ts). */
const isNeutral = (asset: CharacterAsset) => asset.name.toLowerCase() === "neutral";

interface AssetTileProps {
  asset: CharacterAsset;
  kind: Kind;
  deleting: boolean;
  onDelete: () => void;
  /** Absent for backgrounds and for the neutral expression itself. */
  onUseAsNeutral?: () => void;
  settingNeutral: boolean;
}

function AssetTile({ asset, kind, deleting, onDelete, onUseAsNeutral, settingNeutral }: AssetTileProps) {
  return (
    <li className="overflow-hidden rounded-lg border border-border bg-background">
      <img
        src={asset.url}
        alt={kind === "emotion" ? `Expression: ${asset.name}` : `Background: ${asset.name}`}
        className={kind === "emotion" ? "aspect-square w-full object-contain" : "aspect-video w-full object-cover"}
        loading="lazy"
      />
      <div className="flex items-center justify-between gap-2 px-2 py-1.5">
        <span className="min-w-0 truncate text-sm" title={asset.name}>
          {asset.name}
        </span>
        <div className="flex shrink-0 items-center">
          {kind === "emotion" && isNeutral(asset) ? (
            <span className="px-2 text-amber-400" title="The neutral face: shown when a reply's emotion has no picture">
              <Star aria-hidden="true" className="size-4 fill-current" />
              <span className="sr-only">(the neutral face)</span>
            </span>
          ) : null}
          {onUseAsNeutral ? (
            <Button
              type="button"
              variant="ghost"
              size="icon"
              aria-label={`Use ${asset.name} as neutral`}
              title="Use as neutral: shown when a reply's emotion has no picture"
              disabled={settingNeutral}
              onClick={onUseAsNeutral}
            >
              <Star aria-hidden="true" />
            </Button>
          ) : null}
          <Button type="button" variant="ghost" size="icon" aria-label={`Delete ${asset.name}`} disabled={deleting} onClick={onDelete}>
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      </div>
    </li>
  );
}

/** Uppy's Dashboard for many pictures; each file's `label` meta starts as labelFromFileName and is editable. */
function AssetUploader({ characterId, kind }: { characterId: number; kind: Kind }) {
  const targetRef = useRef<HTMLDivElement>(null);
  const queryClient = useQueryClient();
  useEffect(() => {
    const target = targetRef.current;
    if (!target) return;
    const copy = COPY[kind];
    const flow = createAvatarUploadFlow({ createUploadUrl, registerAvatar });
    const uppy = new Uppy<Meta & { label: string }, Body>({
      id: `assets-${kind}`,
      autoProceed: false,
      restrictions: { maxNumberOfFiles: 100, maxFileSize: MAX_UPLOAD_BYTES, allowedFileTypes: ["image/png", "image/jpeg", "image/webp", "image/gif"] },
      onBeforeFileAdded: (file) => {
        file.meta.label = labelFromFileName(file.name ?? "");
        return file;
      },
    });
    uppy.use(Dashboard, {
      inline: true,
      target,
      width: "100%",
      height: 240,
      theme: "dark",
      proudlyDisplayPoweredByUppy: false,
      note: copy.note,
      metaFields: [{ id: "label", name: copy.label, placeholder: "joy" }],
    });
    addPresignedPut(uppy, flow);
    uppy.on("upload-success", (file) => {
      if (!file) return;
      void (async () => {
        try {
          const objectPath = await flow.register(file.id);
          const name = String(file.meta.label ?? "").trim() || labelFromFileName(file.name ?? "");
          await addCharacterAsset(characterId, { type: kind, name, objectPath });
          await queryClient.invalidateQueries({ queryKey: ["/api/characters", String(characterId)] });
        } catch (error) {
          toast({ title: "Error", description: serverErrorText(error) ?? `Could not add ${file.name ?? "the picture"}`, variant: "destructive" });
        }
      })();
    });
    uppy.on("file-removed", (file) => flow.forget(file.id));
    return () => uppy.destroy();
  }, [characterId, kind, queryClient]);
  return <div ref={targetRef} className="avatar-upload-panel mt-4" data-testid={`${kind}-uploader`} />;
}
