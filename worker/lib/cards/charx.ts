/**
 * CharX writer: a character card as a `.charx` file, the zip of the
 * Character Card V3 specification (kwaroran/character-card-spec-v3,
 * SPEC_V3.md "CharX"): `card.json` (the V3 card) at the archive's root and
 * its assets as files inside, named from the card's `data.assets` by
 * `embeded://` URIs (the specification's spelling) under
 * `assets/{type}/{images|audio|other}/{name}.{ext}`.
 *
 * The card comes from worker/lib/card-export.ts `writeCard`; only the
 * character's icon (its avatar) is carried today. Assets beyond the icon
 * (expressions, backgrounds: DESIGN.md "Character assets") extend
 * `CharxAsset` lists, not this format.
 */
import { zipSync, type Zippable } from "fflate";
import type { Json } from "../card-fields.ts";

/** One asset of a card: a file stored inside the archive, or a URL it only names. */
export type CharxAsset =
  | { type: string; name: string; ext: string; bytes: Uint8Array }
  | { type: string; name: string; ext: string; url: string };

const IMAGE_EXTENSIONS = new Set(["png", "jpg", "jpeg", "webp", "gif", "avif"]);
const AUDIO_EXTENSIONS = new Set(["mp3", "wav", "ogg", "flac", "m4a"]);

/** The archive path the specification suggests for an asset: `assets/{type}/{images|audio|other}/{name}.{ext}`. */
export function charxAssetPath(asset: { type: string; name: string; ext: string }): string {
  const kind = IMAGE_EXTENSIONS.has(asset.ext) ? "images" : AUDIO_EXTENSIONS.has(asset.ext) ? "audio" : "other";
  const safe = (part: string) => part.replace(/[^\w.-]+/g, "_").slice(0, 100) || "asset";
  return `assets/${safe(asset.type)}/${kind}/${safe(asset.name)}.${safe(asset.ext)}`;
}

/**
 * The `.charx` bytes of V3 card `card` (`{spec: "chara_card_v3", data}`)
 * with `assets`: each stored one is written under charxAssetPath and named
 * `embeded://<path>`; a URL one is named by its URL. Without an icon the
 * card names the default one (`ccdefault:`), as the specification asks.
 * Images are stored as they are (already compressed); `card.json` is
 * deflated. Pure: throws only on a card that cannot be JSON.
 */
export function writeCharx(card: Json, assets: readonly CharxAsset[]): Uint8Array {
  const files: Zippable = {};
  const listed = assets.map((asset) => {
    if ("url" in asset) return { type: asset.type, uri: asset.url, name: asset.name, ext: asset.ext };
    const path = charxAssetPath(asset);
    files[path] = [asset.bytes, { level: 0 }];
    return { type: asset.type, uri: `embeded://${path}`, name: asset.name, ext: asset.ext };
  });
  if (!listed.some((asset) => asset.type === "icon")) listed.unshift({ type: "icon", uri: "ccdefault:", name: "main", ext: "png" });
  const data = (card.data ?? {}) as Json;
  const withAssets = { ...card, data: { ...data, assets: listed } };
  files["card.json"] = [new TextEncoder().encode(JSON.stringify(withAssets)), { level: 6 }];
  return zipSync(files);
}
