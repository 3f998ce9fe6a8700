/**
 * The `og:image` of a shared story (issue 40, DESIGN.md "Sharing and forks";
 * docs/decisions/0036-share-links.md "2026-11-28"): a 1200×630 PNG — the
 * size Open Graph consumers (Facebook, Slack, Discord, X's large card)
 * show whole — with the first character's avatar in a ring on the left
 * and, on the right, the story's title, its cast and its first lines.
 *
 * Drawn pixel by pixel into RGBA and encoded by fast-png (pure JS, as
 * ai/images/offline-painter.ts), because the Worker has no canvas. Text
 * uses the public-domain 8×8 bitmap font of ./font8x8.ts scaled up by whole
 * pixels: it covers printable ASCII only, so other letters are folded to
 * ASCII where Unicode decomposes them ("é" → "e") and shown as "?"
 * otherwise. A real font rasterizer (satori + resvg-wasm) would render any
 * script and anti-alias; see the decision record for why it is not here.
 *
 * The avatar is drawn when it is a PNG (decoded by fast-png) or a JPEG
 * (decoded by jpeg-js, pure JavaScript, as ai/images/jpeg-to-png.ts); a
 * WebP or GIF avatar, or none, gets a monogram: the character's initial on
 * the brand gradient.
 */
import { convertIndexedToRgb, decode, encode, hasPngSignature } from "fast-png";
import { decode as decodeJpeg } from "jpeg-js";
import { GLYPH_SIZE, glyphRows } from "./font8x8.ts";

export const SHARE_IMAGE_WIDTH = 1200;
export const SHARE_IMAGE_HEIGHT = 630;

/** Largest avatar PNG or JPEG decoded, pixels per side (bigger ones get the monogram: decoding costs CPU time). */
export const MAX_AVATAR_SIDE = 2048;

/** What the picture shows. */
export interface ShareImageInput {
  title: string;
  /** The cast's names, first one's avatar shown. */
  cast: string[];
  /** The first lines of the story, oldest first: who spoke and what. */
  lines: { name: string; text: string }[];
  /** The first cast member's avatar file, or null. */
  avatar: Uint8Array | null;
}

type Rgb = readonly [number, number, number];

const BACKGROUND_TOP: Rgb = [18, 10, 31];
const BACKGROUND_BOTTOM: Rgb = [43, 13, 47];
const VIOLET: Rgb = [124, 58, 237];
const PINK: Rgb = [219, 39, 119];
const WHITE: Rgb = [245, 243, 255];
const MUTED: Rgb = [196, 181, 253];
const NAME: Rgb = [244, 114, 182];

const AVATAR_CENTER = { x: 230, y: 315 };
const AVATAR_RADIUS = 150;
const RING = 8;
const TEXT_LEFT = 440;
const TEXT_RIGHT = 1140;

/** An RGBA canvas. */
class Canvas {
  readonly data = new Uint8Array(SHARE_IMAGE_WIDTH * SHARE_IMAGE_HEIGHT * 4);

  /** Blends `color` at (x, y) with opacity `alpha` (0–1); outside the canvas, nothing. */
  blend(x: number, y: number, color: Rgb, alpha = 1): void {
    if (x < 0 || y < 0 || x >= SHARE_IMAGE_WIDTH || y >= SHARE_IMAGE_HEIGHT || alpha <= 0) return;
    const i = (y * SHARE_IMAGE_WIDTH + x) * 4;
    const a = Math.min(1, alpha);
    for (let c = 0; c < 3; c++) this.data[i + c] = Math.round(this.data[i + c]! * (1 - a) + color[c]! * a);
    this.data[i + 3] = 255;
  }

  fill(x: number, y: number, w: number, h: number, color: Rgb): void {
    for (let row = y; row < y + h; row++) for (let col = x; col < x + w; col++) this.blend(col, row, color);
  }
}

const mix = (a: Rgb, b: Rgb, t: number): Rgb => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];

/** Opacity of pixel (x, y) inside a circle of radius `r` at (cx, cy), its edge anti-aliased over one pixel. */
function circleCoverage(x: number, y: number, cx: number, cy: number, r: number): number {
  const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
  return Math.max(0, Math.min(1, r - d + 0.5));
}

/**
 * `text` in the font's alphabet: letters with accents without them, typographic
 * quotes, dashes and ellipses as ASCII, roleplay asterisks dropped, white space
 * folded, anything else "?".
 */
export function fontText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[\u2018\u2019\u201a\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201e\u2033]/g, '"')
    .replace(/[\u2013\u2014\u2212]/g, "-")
    .replace(/\u2026/g, "...")
    .replace(/\*+/g, "")
    .replace(/\s+/g, " ")
    .replace(/[^\x20-\x7e]/gu, "?")
    .trim();
}

/** A run of text in one colour. */
interface Run {
  text: string;
  color: Rgb;
}

/**
 * Wraps `runs` (already in the font's alphabet) into at most `maxLines` lines
 * of `perLine` characters, breaking at spaces (a word longer than a line
 * continues on the next); the last line ends with "..." when text is left over.
 */
export function wrapRuns(runs: readonly Run[], perLine: number, maxLines: number): Run[][] {
  // A word longer than a line goes on over the next ones.
  const words: Run[] = runs.flatMap((run) =>
    run.text
      .split(" ")
      .filter(Boolean)
      .flatMap((word) => Array.from({ length: Math.ceil(word.length / perLine) }, (_, i) => word.slice(i * perLine, (i + 1) * perLine)))
      .map((text) => ({ text, color: run.color })),
  );
  const lines: Run[][] = [];
  let line: Run[] = [];
  let length = 0;
  let truncated = false;
  for (let index = 0; index < words.length; index++) {
    const word = words[index]!;
    const need = (length > 0 ? 1 : 0) + word.text.length;
    if (length + need > perLine) {
      if (length > 0) {
        lines.push(line);
        line = [];
        length = 0;
      }
      if (lines.length === maxLines) {
        truncated = true;
        break;
      }
    }
    line.push(length > 0 ? { ...word, text: ` ${word.text}` } : word);
    length += (length > 0 ? 1 : 0) + word.text.length;
  }
  if (!truncated && line.length > 0) {
    if (lines.length < maxLines) lines.push(line);
    else truncated = true;
  }
  if (truncated && lines.length > 0) {
    const last = lines[lines.length - 1]!;
    let total = last.reduce((sum, run) => sum + run.text.length, 0);
    while (total + 3 > perLine && last.length > 0) {
      const tail = last[last.length - 1]!;
      const cut = Math.min(tail.text.length, total + 3 - perLine);
      tail.text = tail.text.slice(0, tail.text.length - cut);
      total -= cut;
      if (tail.text === "") last.pop();
    }
    last.push({ text: "...", color: last[last.length - 1]?.color ?? WHITE });
  }
  return lines;
}

/** Draws `text` (the font's alphabet) at (x, y), each font pixel `scale`×`scale`; returns the x after it. */
function drawText(canvas: Canvas, text: string, x: number, y: number, scale: number, color: Rgb): number {
  for (const char of text) {
    const rows = glyphRows(char) ?? glyphRows("?")!;
    for (let row = 0; row < GLYPH_SIZE; row++) {
      for (let col = 0; col < GLYPH_SIZE; col++) {
        if (rows[row]! & (1 << col)) canvas.fill(x + col * scale, y + row * scale, scale, scale, color);
      }
    }
    x += GLYPH_SIZE * scale;
  }
  return x;
}

function drawLines(canvas: Canvas, lines: Run[][], x: number, y: number, scale: number, lineHeight: number): number {
  for (const line of lines) {
    let at = x;
    for (const run of line) at = drawText(canvas, run.text, at, y, scale, run.color);
    y += lineHeight;
  }
  return y;
}

type AvatarPixels = { width: number; height: number; rgba: (x: number, y: number) => [number, number, number, number] };

/** A JPEG's SOI marker and the first segment's (FF D8 FF, JFIF/Exif/plain alike). */
const isJpeg = (file: Uint8Array) => file[0] === 0xff && file[1] === 0xd8 && file[2] === 0xff;

/** A JPEG avatar's pixels (RGBA 8-bit), or null when it cannot be read or is larger than MAX_AVATAR_SIDE a side. */
function jpegPixels(file: Uint8Array): AvatarPixels | null {
  let image: { width: number; height: number; data: Uint8Array };
  try {
    image = decodeJpeg(file, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: Math.ceil((MAX_AVATAR_SIDE * MAX_AVATAR_SIDE) / 1_000_000), maxMemoryUsageInMB: 64 });
  } catch {
    return null;
  }
  const { width, height, data } = image;
  if (width < 1 || height < 1 || width > MAX_AVATAR_SIDE || height > MAX_AVATAR_SIDE) return null;
  return {
    width,
    height,
    rgba: (x, y) => {
      const i = (y * width + x) * 4;
      return [data[i]!, data[i + 1]!, data[i + 2]!, 255];
    },
  };
}

/** The avatar's pixels as RGBA 8-bit, or null when it is not a PNG or JPEG the picture can use. */
function avatarPixels(file: Uint8Array | null): AvatarPixels | null {
  if (file && isJpeg(file)) return jpegPixels(file);
  if (!file || !hasPngSignature(file)) return null;
  let png;
  try {
    png = decode(file);
  } catch {
    return null;
  }
  const { width, height } = png;
  if (width < 1 || height < 1 || width > MAX_AVATAR_SIDE || height > MAX_AVATAR_SIDE) return null;
  let data: ArrayLike<number> = png.data;
  let channels = png.channels;
  let shift = 0;
  if (png.palette) {
    data = convertIndexedToRgb(png);
    channels = png.palette[0]?.length ?? 3;
  } else if (png.depth === 16) {
    shift = 8;
  } else if (png.depth !== 8) {
    return null;
  }
  return {
    width,
    height,
    rgba: (x, y) => {
      const i = (y * width + x) * channels;
      const v = (c: number) => (data[i + c] ?? 0) >> shift;
      if (channels >= 3) return [v(0), v(1), v(2), channels === 4 ? v(3) : 255];
      return [v(0), v(0), v(0), channels === 2 ? v(1) : 255];
    },
  };
}

/** The avatar (cover-fitted, sampled per pixel) or a monogram, in a circle with a gradient ring. */
function drawAvatar(canvas: Canvas, file: Uint8Array | null, name: string): void {
  const { x: cx, y: cy } = AVATAR_CENTER;
  const outer = AVATAR_RADIUS + RING;
  for (let y = cy - outer - 1; y <= cy + outer + 1; y++) {
    for (let x = cx - outer - 1; x <= cx + outer + 1; x++) {
      const ring = circleCoverage(x, y, cx, cy, outer);
      if (ring > 0) canvas.blend(x, y, mix(VIOLET, PINK, (x - cx + outer) / (2 * outer)), ring);
    }
  }
  const avatar = avatarPixels(file);
  const side = AVATAR_RADIUS * 2;
  const scale = avatar ? Math.max(side / avatar.width, side / avatar.height) : 1;
  for (let y = cy - AVATAR_RADIUS - 1; y <= cy + AVATAR_RADIUS + 1; y++) {
    for (let x = cx - AVATAR_RADIUS - 1; x <= cx + AVATAR_RADIUS + 1; x++) {
      const inside = circleCoverage(x, y, cx, cy, AVATAR_RADIUS);
      if (inside <= 0) continue;
      // Under a transparent avatar: the dark background, as the site shows avatars.
      canvas.blend(x, y, BACKGROUND_TOP, inside);
      if (avatar) {
        const sx = Math.min(avatar.width - 1, Math.max(0, Math.floor((x - cx) / scale + avatar.width / 2)));
        const sy = Math.min(avatar.height - 1, Math.max(0, Math.floor((y - cy) / scale + avatar.height / 2)));
        const [r, g, b, a] = avatar.rgba(sx, sy);
        canvas.blend(x, y, [r, g, b], inside * (a / 255));
      } else {
        canvas.blend(x, y, mix(VIOLET, PINK, (y - cy + AVATAR_RADIUS) / side), inside * 0.85);
      }
    }
  }
  if (!avatar) {
    const initial = fontText(name).charAt(0).toUpperCase() || "?";
    const size = 14;
    drawText(canvas, initial, cx - (GLYPH_SIZE * size) / 2, cy - (GLYPH_SIZE * size) / 2, size, WHITE);
  }
}

/**
 * The picture of a share as PNG bytes (1200×630, RGB 8-bit). Never throws
 * for any input: an avatar it cannot read becomes a monogram, text it
 * cannot draw a "?".
 */
export function renderShareImage(input: ShareImageInput): Uint8Array<ArrayBuffer> {
  const canvas = new Canvas();
  // The background, top to bottom, a row at a time (the one pass over every pixel: no blending).
  // One 32-bit word per pixel, bytes R, G, B, A in memory: little-endian, as every Workers host is.
  const words = new Uint32Array(canvas.data.buffer);
  const abgr = ([r, g, b]: Rgb) => ((255 << 24) | (Math.round(b) << 16) | (Math.round(g) << 8) | Math.round(r)) >>> 0;
  for (let y = 0; y < SHARE_IMAGE_HEIGHT; y++) {
    words.fill(abgr(mix(BACKGROUND_TOP, BACKGROUND_BOTTOM, y / SHARE_IMAGE_HEIGHT)), y * SHARE_IMAGE_WIDTH, (y + 1) * SHARE_IMAGE_WIDTH);
  }
  for (let x = 0; x < SHARE_IMAGE_WIDTH; x++) canvas.fill(x, 0, 1, 10, mix(VIOLET, PINK, x / SHARE_IMAGE_WIDTH));

  drawAvatar(canvas, input.avatar, input.cast[0] ?? input.title);

  const width = TEXT_RIGHT - TEXT_LEFT;
  const chars = (scale: number) => Math.floor(width / (GLYPH_SIZE * scale));
  let y = 70;
  drawText(canvas, "FABLED - A SHARED STORY", TEXT_LEFT, y, 2, NAME);
  y += 40;
  y = drawLines(canvas, wrapRuns([{ text: fontText(input.title), color: WHITE }], chars(4), 2), TEXT_LEFT, y, 4, 42);
  if (input.cast.length > 0) {
    y = drawLines(canvas, wrapRuns([{ text: fontText(`with ${input.cast.join(", ")}`), color: MUTED }], chars(2), 1), TEXT_LEFT, y + 4, 2, 24);
  }
  y += 26;
  const lineHeight = 32;
  let room = Math.floor((SHARE_IMAGE_HEIGHT - 40 - y) / lineHeight);
  for (const line of input.lines) {
    if (room <= 0) break;
    const runs = [
      { text: fontText(`${line.name}:`), color: NAME },
      { text: fontText(line.text), color: WHITE },
    ];
    const wrapped = wrapRuns(runs, chars(3), room);
    y = drawLines(canvas, wrapped, TEXT_LEFT, y, 3, lineHeight) + 8;
    room = Math.floor((SHARE_IMAGE_HEIGHT - 40 - y) / lineHeight);
  }

  const rgb = new Uint8Array(SHARE_IMAGE_WIDTH * SHARE_IMAGE_HEIGHT * 3);
  for (let i = 0, j = 0; i < canvas.data.length; i += 4, j += 3) {
    rgb[j] = canvas.data[i]!;
    rgb[j + 1] = canvas.data[i + 1]!;
    rgb[j + 2] = canvas.data[i + 2]!;
  }
  // A copy on a plain ArrayBuffer, as a Response body takes it.
  return encode({ width: SHARE_IMAGE_WIDTH, height: SHARE_IMAGE_HEIGHT, data: rgb, channels: 3, depth: 8 }, { zlib: { level: 3 } }).slice();
}
