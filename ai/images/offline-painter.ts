/**
 * The offline image generator (DESIGN.md "Pictures"): paints a picture from
 * the prompt's own words inside the Worker — no network, no downloaded
 * weights — so local development and tests see a real picture whose
 * composition follows what was asked ("a night sea under the moon": a dark
 * blue sky with stars, a horizon, water with the moon's reflection).
 *
 * Two steps, both pure:
 * - `sceneOf(prompt)`: the words read into a Scene — time of day, the
 *   ground (sea, desert, snow, forest, meadow, city, mountains, fire, a
 *   room), the things in it (moon, sun, stars, clouds, castle, a figure,
 *   rain, snowfall, mist), colour words as an accent, and whether it is a
 *   portrait ("portrait", "avatar": head and shoulders filling the frame,
 *   a beard when one is named). A prompt naming
 *   none of them is painted as an abstract composition in a palette from
 *   its hash.
 * - `paintScene(scene, side)`: RGB pixels, layer by layer (sky gradient,
 *   stars, sun or moon with its glow, clouds, far mountains, the ground,
 *   buildings or trees, a figure, weather, mist, a vignette and grain).
 *   Every random choice (positions, heights) comes from a generator seeded
 *   by the prompt's FNV-1a hash, so the same prompt paints the same picture
 *   and two prompts with the same words in another order still differ.
 *
 * PNG encoding is fast-png's (pure JS over pako's deflate; level 3 is about
 * as small as 6 for smooth gradients at a third of the time). The prompt is
 * kept in the PNG's `Description` tEXt chunk.
 */
import { encode } from "fast-png";
import { type GeneratedImage, type GenerateOptions, type ImageGenerator, imageSide, MAX_IMAGE_PROMPT_CHARS } from "./image-generator.ts";
import { Canvas, mix, type Rgb, shade } from "./painter/canvas.ts";
import { mulberry32 } from "../../schema/seeded-random.ts";
import { type Scene, sceneOf, type TimeOfDay } from "./painter/scene.ts";
import { LIGHT, paintAbstract, paintCastle, paintCity, paintFigure, paintFlames, paintGround, paintRoom, paintTrees, ridge, SKIES } from "./painter/scenery.ts";

/**
 * RGB pixels (width × height × 3 bytes, rows top to bottom) of `scene` on a
 * square of `side` pixels.
 */
export function paintScene(scene: Scene, side: number): Uint8Array {
  const canvas = new Canvas(side, side);
  const random = mulberry32(scene.seed);
  const { time, ground, features, accent } = scene;
  const light = LIGHT[time];
  const u = side / 768;

  if (ground === "none" && !features.has("moon") && !features.has("sun") && !features.has("castle") && !features.has("figure")) {
    paintAbstract(canvas, scene, random);
    return finish(canvas, time);
  }

  const indoor = ground === "room";
  const horizon = Math.round(side * (ground === "sea" ? 0.56 + random() * 0.08 : ground === "mountains" ? 0.7 : indoor ? 0.72 : 0.6 + random() * 0.08));

  // Sky (a wall, indoors): a vertical gradient, tinted a little by the accent.
  const [top, low] = indoor ? [shade(mix([120, 80, 50], accent, 0.15), light), shade([170, 120, 70], light)] : SKIES[time];
  for (let y = 0; y < horizon; y++) {
    const colour = mix(mix(top, low, Math.pow(y / horizon, 1.3)), accent, scene.namedAccent ? 0.12 : 0.05);
    canvas.span(y, 0, side, colour);
  }

  if (indoor) {
    paintRoom(canvas, scene, random, horizon, u);
  } else {
    if (features.has("stars")) {
      const count = Math.round(220 * u * u);
      for (let i = 0; i < count; i++) {
        const x = random() * side;
        const y = random() * horizon * 0.92;
        const big = random() < 0.08;
        canvas.disc(x, y, big ? 1.6 * u : 0.7 * u, [255, 250, 235], 0.5 + random() * 0.5, 1);
      }
    }
    const bodyX = side * (0.18 + random() * 0.64);
    const bodyY = horizon * (time === "dusk" || time === "dawn" ? 0.78 : 0.22 + random() * 0.2);
    if (features.has("moon")) {
      const r = 42 * u;
      canvas.glow(bodyX, bodyY, r * 4, [190, 205, 255], 0.35);
      canvas.disc(bodyX, bodyY, r, [238, 236, 220]);
      canvas.disc(bodyX - r * 0.3, bodyY - r * 0.2, r * 0.22, [205, 203, 190], 0.7);
      canvas.disc(bodyX + r * 0.35, bodyY + r * 0.3, r * 0.15, [210, 208, 195], 0.6);
    } else if (features.has("sun")) {
      const r = 56 * u;
      const sun: Rgb = time === "day" ? [255, 246, 210] : [255, 190, 110];
      canvas.glow(bodyX, bodyY, r * 5, time === "day" ? [255, 250, 225] : [255, 150, 80], 0.5);
      canvas.disc(bodyX, bodyY, r, sun);
    }
    if (features.has("clouds") || (time === "day" && random() < 0.6)) {
      const cloud: Rgb = time === "night" ? [60, 66, 96] : time === "day" ? [250, 250, 252] : [250, 200, 190];
      const count = 3 + Math.floor(random() * 4);
      for (let i = 0; i < count; i++) {
        const cx = random() * side;
        const cy = horizon * (0.1 + random() * 0.5);
        for (let k = 0; k < 5; k++) canvas.ellipse(cx + (k - 2) * 28 * u + random() * 10 * u, cy + random() * 12 * u, (40 + random() * 40) * u, (16 + random() * 14) * u, cloud, 0.35);
      }
    }
    if (features.has("mountains") || ground === "mountains" || ground === "snow") {
      const layers = ground === "mountains" ? 3 : 2;
      for (let layer = 0; layer < layers; layer++) {
        const line = ridge(random);
        const base: Rgb = ground === "snow" ? [150, 165, 190] : [70, 80, 110];
        const colour = shade(mix(base, SKIES[time][1], 0.55 - layer * 0.2), light + 0.15 * (1 - light));
        const height = side * (0.22 - layer * 0.05);
        for (let x = 0; x < side; x++) {
          const peak = horizon - height * (0.55 + 0.45 * line((x / side) * Math.PI * 2));
          for (let y = Math.max(0, Math.floor(peak)); y < horizon; y++) canvas.blend(x, y, colour, 1);
          if (ground === "snow" || layer === 0) for (let y = Math.max(0, Math.floor(peak)); y < peak + 10 * u && y < horizon; y++) canvas.blend(x, y, [240, 244, 250], 0.75 * light + 0.2);
        }
      }
    }
    paintGround(canvas, scene, random, horizon, bodyX, u);
    if (features.has("castle")) paintCastle(canvas, scene, random, horizon, u);
    if (ground === "city") paintCity(canvas, scene, random, horizon, u);
    if (ground === "forest" || features.has("trees")) paintTrees(canvas, scene, random, horizon, u);
    if (ground === "fire") paintFlames(canvas, random, horizon, u);
  }

  if (features.has("figure")) paintFigure(canvas, scene, random, horizon, u);
  if (features.has("rain")) {
    for (let i = 0; i < 500 * u * u; i++) {
      const x = random() * side;
      const y = random() * side;
      for (let k = 0; k < 18 * u; k++) canvas.blend(Math.round(x + k * 0.35), Math.round(y + k), [200, 210, 230], 0.35);
    }
  }
  if (features.has("snowfall") || (ground === "snow" && random() < 0.7)) {
    for (let i = 0; i < 400 * u * u; i++) canvas.disc(random() * side, random() * side, (0.8 + random() * 1.8) * u, [250, 250, 255], 0.8, 1);
  }
  if (features.has("mist")) {
    const fog: Rgb = time === "night" ? [70, 80, 100] : [215, 220, 225];
    for (let y = 0; y < side; y++) {
      const band = Math.exp(-Math.pow((y - horizon) / (side * 0.18), 2));
      canvas.span(y, 0, side, fog, 0.55 * band);
    }
  }
  return finish(canvas, time);
}

/** Bayer's 4 × 4 ordered-dither matrix, centred on 0 (a fixed pattern: flat areas do not band, and it compresses far better than random grain). */
const BAYER = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5].map((n) => (n - 7.5) / 5);

/** A vignette and an ordered dither. */
function finish(canvas: Canvas, time: TimeOfDay): Uint8Array {
  const { width, height, data } = canvas;
  const strength = time === "night" ? 0.45 : 0.3;
  for (let y = 0; y < height; y++) {
    const ny = y / height - 0.5;
    for (let x = 0; x < width; x++) {
      const nx = x / width - 0.5;
      const v = 1 - strength * Math.min(1, (nx * nx + ny * ny) * 2);
      const grain = BAYER[(y & 3) * 4 + (x & 3)]!;
      const i = (y * width + x) * 3;
      data[i] = Math.max(0, Math.min(255, data[i]! * v + grain));
      data[i + 1] = Math.max(0, Math.min(255, data[i + 1]! * v + grain));
      data[i + 2] = Math.max(0, Math.min(255, data[i + 2]! * v + grain));
    }
  }
  return data;
}

/**
 * Paints `prompt` as a PNG of `side` × `side` pixels (see the module
 * comment); `variation` (a regenerate's, 0: the first drawing) reseeds every
 * random choice, so the same words give another picture of the same scene.
 */
export function paintPng(prompt: string, side: number, variation = 0): Uint8Array {
  const text = prompt.slice(0, MAX_IMAGE_PROMPT_CHARS);
  const scene = sceneOf(text);
  if (variation) scene.seed = (scene.seed ^ Math.imul(variation, 0x9e3779b1)) >>> 0;
  const pixels = paintScene(scene, side);
  return encode(
    { width: side, height: side, data: pixels, channels: 3, depth: 8, text: { Description: text.replace(/[^\x20-\x7e]/g, "?").slice(0, 500), Software: "Fabled offline painter" } },
    { zlib: { level: 3 } },
  );
}

/** The offline generator: `paintPng` behind the ImageGenerator interface. */
export class OfflineImageGenerator implements ImageGenerator {
  readonly name = "offline" as const;
  readonly id = "offline-painter-v1";

  async generate(prompt: string, { size, signal, variation }: GenerateOptions = {}): Promise<GeneratedImage> {
    signal?.throwIfAborted();
    const side = imageSide(size);
    return { bytes: paintPng(prompt, side, variation), contentType: "image/png", width: side, height: side };
  }
}
