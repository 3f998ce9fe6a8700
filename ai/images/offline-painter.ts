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

type Rgb = readonly [number, number, number];

export type TimeOfDay = "night" | "dusk" | "dawn" | "day";
export type Ground = "sea" | "desert" | "snow" | "forest" | "meadow" | "city" | "mountains" | "fire" | "room" | "none";
export type Feature = "moon" | "sun" | "stars" | "clouds" | "castle" | "figure" | "rain" | "snowfall" | "mist" | "trees" | "mountains";

/** What the painter makes of a prompt. */
export interface Scene {
  seed: number;
  time: TimeOfDay;
  ground: Ground;
  features: Set<Feature>;
  /** A colour the prompt named ("crimson", "gold"), or one from its hash. */
  accent: Rgb;
  /** True when a colour word named the accent. */
  namedAccent: boolean;
  /** A portrait ("portrait", "avatar", "headshot"): one figure, head and shoulders, filling the frame. */
  portrait: boolean;
  /** The prompt's words joined by spaces (details a part of the picture looks for: "beard", "white"). */
  words: string;
}

/** FNV-1a, 32 bits (Fowler–Noll–Vo, the `FNV_offset_basis` and `FNV_prime` of the 32-bit variant). */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** mulberry32: a small, fast, well-distributed 32-bit generator; [0, 1). */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TIME_WORDS: Record<Exclude<TimeOfDay, "day">, readonly string[]> = {
  night: ["night", "midnight", "moon", "moonlight", "moonlit", "stars", "starry", "dark", "darkness", "nocturnal", "evening sky"],
  dusk: ["sunset", "dusk", "evening", "twilight", "golden hour"],
  dawn: ["dawn", "sunrise", "daybreak", "morning"],
};

// Order matters: the first ground a prompt names is the picture's ground.
const GROUND_WORDS: readonly [Exclude<Ground, "none">, readonly string[]][] = [
  ["sea", ["sea", "ocean", "waves", "wave", "beach", "shore", "coast", "lake", "harbor", "harbour", "boat", "ship", "sail", "water", "river", "bay", "pier", "island"]],
  ["fire", ["fire", "flames", "flame", "burning", "lava", "volcano", "inferno", "blaze", "ember", "embers", "campfire"]],
  ["desert", ["desert", "dunes", "dune", "sand", "sands", "oasis", "sahara", "canyon"]],
  ["snow", ["snow", "snowy", "winter", "ice", "icy", "frozen", "glacier", "frost", "arctic", "tundra"]],
  ["city", ["city", "street", "streets", "town", "skyline", "buildings", "alley", "neon", "cyberpunk", "rooftop", "rooftops", "village", "market"]],
  ["forest", ["forest", "woods", "wood", "jungle", "grove", "woodland", "trees"]],
  ["room", ["room", "tavern", "inn", "library", "bedroom", "hall", "kitchen", "study", "chamber", "cafe", "bar", "throne", "office", "classroom"]],
  ["mountains", ["mountain", "mountains", "peak", "peaks", "cliff", "cliffs", "alps", "summit", "ridge", "valley"]],
  ["meadow", ["meadow", "field", "fields", "garden", "grass", "hill", "hills", "farm", "park", "countryside", "prairie", "flowers"]],
];

const FEATURE_WORDS: readonly [Feature, readonly string[]][] = [
  ["moon", ["moon", "moonlight", "moonlit", "lunar", "crescent"]],
  ["sun", ["sun", "sunny", "sunlight", "sunshine", "sunrise", "sunset"]],
  ["stars", ["stars", "star", "starry", "starlight", "galaxy", "night sky", "constellation"]],
  ["clouds", ["cloud", "clouds", "cloudy", "overcast", "storm", "stormy"]],
  ["castle", ["castle", "tower", "fortress", "palace", "citadel", "keep", "spire", "cathedral", "temple"]],
  [
    "figure",
    ["man", "woman", "girl", "boy", "person", "figure", "knight", "wizard", "witch", "warrior", "she", "he", "her", "him", "king", "queen", "prince", "princess",
      "stranger", "traveler", "traveller", "hero", "portrait", "elf", "mage", "lady", "soldier", "detective", "pirate", "captain", "character", "avatar", "face"],
  ],
  ["rain", ["rain", "raining", "rainy", "downpour", "drizzle", "storm", "stormy"]],
  ["snowfall", ["snowing", "snowfall", "snowflakes", "blizzard", "snowstorm"]],
  ["mist", ["mist", "misty", "fog", "foggy", "haze", "hazy", "smoke", "smoky", "ghost", "ghostly"]],
  ["trees", ["tree", "trees", "pine", "pines", "oak", "willow", "orchard"]],
  ["mountains", ["mountain", "mountains", "peak", "peaks", "alps", "summit", "ridge", "hills"]],
];

const COLOUR_WORDS: Record<string, Rgb> = {
  red: [200, 40, 40],
  crimson: [170, 20, 50],
  scarlet: [225, 40, 30],
  orange: [240, 130, 30],
  amber: [245, 170, 40],
  gold: [230, 185, 60],
  golden: [230, 185, 60],
  yellow: [240, 220, 70],
  green: [50, 160, 70],
  emerald: [30, 150, 100],
  teal: [30, 140, 140],
  cyan: [60, 200, 220],
  blue: [50, 90, 210],
  azure: [60, 140, 230],
  sapphire: [30, 60, 170],
  purple: [130, 60, 180],
  violet: [150, 90, 220],
  lavender: [180, 160, 230],
  pink: [235, 120, 170],
  rose: [225, 100, 130],
  magenta: [210, 50, 170],
  silver: [200, 205, 215],
  white: [240, 240, 240],
  black: [25, 25, 30],
  brown: [120, 80, 50],
  copper: [190, 110, 60],
  bronze: [170, 120, 60],
  neon: [255, 60, 200],
};

/** The prompt's words, lower case, letters and digits only (accents folded). */
function wordsOf(prompt: string): string[] {
  return prompt
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** HSL (h in [0, 360), s and l in [0, 1]) to RGB bytes. */
function hsl(h: number, s: number, l: number): Rgb {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

/**
 * The scene a prompt asks for (see the module comment). Words are matched
 * whole; two-word phrases ("night sky") against the prompt's joined words.
 */
export function sceneOf(prompt: string): Scene {
  const words = wordsOf(prompt);
  const set = new Set(words);
  const joined = ` ${words.join(" ")} `;
  const has = (list: readonly string[]) => list.some((word) => (word.includes(" ") ? joined.includes(` ${word} `) : set.has(word)));
  const seed = fnv1a(words.join(" ") || prompt);
  const time: TimeOfDay = has(TIME_WORDS.night) ? "night" : has(TIME_WORDS.dusk) ? "dusk" : has(TIME_WORDS.dawn) ? "dawn" : "day";
  // The ground the prompt names first, reading left to right.
  let ground: Ground = "none";
  let firstAt = Infinity;
  for (const [name, list] of GROUND_WORDS) {
    const at = words.findIndex((word) => list.includes(word));
    if (at !== -1 && at < firstAt) {
      firstAt = at;
      ground = name;
    }
  }
  const features = new Set<Feature>(FEATURE_WORDS.filter(([, list]) => has(list)).map(([feature]) => feature));
  if (time === "night") features.add("stars");
  if (time === "night" && !features.has("sun")) features.add("moon");
  if ((time === "dusk" || time === "dawn") && !features.has("moon")) features.add("sun");
  if (time === "day" && ground !== "room" && ground !== "none" && !features.has("moon")) features.add("sun");
  const colourWord = words.find((word) => word in COLOUR_WORDS);
  const accent = colourWord ? COLOUR_WORDS[colourWord]! : hsl(seed % 360, 0.65, 0.55);
  const portrait = has(["portrait", "avatar", "headshot", "bust", "head and shoulders"]);
  if (portrait) features.add("figure");
  return { seed, time, ground, features, accent, namedAccent: colourWord !== undefined, portrait, words: words.join(" ") };
}

/** An RGB canvas with alpha blending; out-of-range pixels are ignored. */
class Canvas {
  readonly data: Uint8Array;
  readonly width: number;
  readonly height: number;

  constructor(width: number, height: number) {
    this.width = width;
    this.height = height;
    this.data = new Uint8Array(width * height * 3);
  }

  blend(x: number, y: number, [r, g, b]: Rgb, alpha: number): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height || alpha <= 0) return;
    const i = (y * this.width + x) * 3;
    const a = Math.min(1, alpha);
    const d = this.data;
    d[i] = d[i]! + (r - d[i]!) * a;
    d[i + 1] = d[i + 1]! + (g - d[i + 1]!) * a;
    d[i + 2] = d[i + 2]! + (b - d[i + 2]!) * a;
  }

  /** A filled horizontal run [x0, x1) on row y. */
  span(y: number, x0: number, x1: number, colour: Rgb, alpha = 1): void {
    if (y < 0 || y >= this.height) return;
    for (let x = Math.max(0, Math.floor(x0)); x < Math.min(this.width, Math.ceil(x1)); x++) this.blend(x, y, colour, alpha);
  }

  rect(x0: number, y0: number, x1: number, y1: number, colour: Rgb, alpha = 1): void {
    for (let y = Math.max(0, Math.floor(y0)); y < Math.min(this.height, Math.ceil(y1)); y++) this.span(y, x0, x1, colour, alpha);
  }

  /** A disc with a soft edge of `soft` pixels. */
  disc(cx: number, cy: number, radius: number, colour: Rgb, alpha = 1, soft = 1.5): void {
    const reach = radius + soft;
    for (let y = Math.max(0, Math.floor(cy - reach)); y < Math.min(this.height, Math.ceil(cy + reach)); y++) {
      for (let x = Math.max(0, Math.floor(cx - reach)); x < Math.min(this.width, Math.ceil(cx + reach)); x++) {
        const d = Math.hypot(x - cx, y - cy);
        if (d < reach) this.blend(x, y, colour, alpha * Math.min(1, (reach - d) / soft));
      }
    }
  }

  /** A glow falling off from `cx, cy` as (1 − d/radius)². */
  glow(cx: number, cy: number, radius: number, colour: Rgb, strength: number): void {
    for (let y = Math.max(0, Math.floor(cy - radius)); y < Math.min(this.height, Math.ceil(cy + radius)); y++) {
      for (let x = Math.max(0, Math.floor(cx - radius)); x < Math.min(this.width, Math.ceil(cx + radius)); x++) {
        const f = 1 - Math.hypot(x - cx, y - cy) / radius;
        if (f > 0) this.blend(x, y, colour, strength * f * f);
      }
    }
  }

  /** An ellipse, filled. */
  ellipse(cx: number, cy: number, rx: number, ry: number, colour: Rgb, alpha = 1): void {
    for (let y = Math.max(0, Math.floor(cy - ry)); y < Math.min(this.height, Math.ceil(cy + ry)); y++) {
      const t = (y - cy) / ry;
      const half = rx * Math.sqrt(Math.max(0, 1 - t * t));
      this.span(y, cx - half, cx + half, colour, alpha);
    }
  }

  /** A filled triangle with its apex at (ax, ay) and a flat base from (bx0, by) to (bx1, by). */
  spike(ax: number, ay: number, bx0: number, bx1: number, by: number, colour: Rgb, alpha = 1): void {
    for (let y = Math.max(0, Math.floor(ay)); y < Math.min(this.height, Math.ceil(by)); y++) {
      const t = (y - ay) / (by - ay);
      this.span(y, ax + (bx0 - ax) * t, ax + (bx1 - ax) * t, colour, alpha);
    }
  }
}

const mix = (a: Rgb, b: Rgb, t: number): Rgb => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
const shade = (c: Rgb, f: number): Rgb => [c[0] * f, c[1] * f, c[2] * f];

/** Sky colours (top, horizon) by time of day. */
const SKIES: Record<TimeOfDay, [Rgb, Rgb]> = {
  night: [[6, 10, 34], [28, 44, 92]],
  dusk: [[58, 40, 110], [246, 138, 78]],
  dawn: [[110, 140, 200], [250, 190, 150]],
  day: [[70, 130, 215], [185, 215, 240]],
};

/** How the light of the time of day tints the ground: a factor for its colours. */
const LIGHT: Record<TimeOfDay, number> = { night: 0.35, dusk: 0.7, dawn: 0.85, day: 1 };

/** A smooth ridge line across the width: the sum of a few sines with seeded phases, in [-1, 1]. */
function ridge(random: () => number, octaves = 4): (x: number) => number {
  const waves = Array.from({ length: octaves }, (_, i) => ({ f: (i + 1) * (1.5 + random() * 2), p: random() * Math.PI * 2, a: 1 / (i + 1) }));
  const total = waves.reduce((sum, w) => sum + w.a, 0);
  return (x) => waves.reduce((sum, w) => sum + w.a * Math.sin(x * w.f + w.p), 0) / total;
}

/**
 * RGB pixels (width × height × 3 bytes, rows top to bottom) of `scene` on a
 * square of `side` pixels.
 */
export function paintScene(scene: Scene, side: number): Uint8Array {
  const canvas = new Canvas(side, side);
  const random = seeded(scene.seed);
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

function paintGround(canvas: Canvas, scene: Scene, random: () => number, horizon: number, bodyX: number, u: number): void {
  const side = canvas.width;
  const light = LIGHT[scene.time];
  const ground = scene.ground;
  const colours: Record<Ground, [Rgb, Rgb]> = {
    sea: [[30, 70, 120], [8, 24, 52]],
    desert: [[226, 180, 120], [180, 120, 70]],
    snow: [[235, 240, 248], [200, 212, 230]],
    forest: [[50, 100, 50], [20, 50, 25]],
    meadow: [[110, 170, 70], [50, 110, 40]],
    city: [[70, 70, 80], [35, 35, 42]],
    mountains: [[90, 110, 80], [45, 60, 45]],
    fire: [[80, 30, 20], [30, 10, 8]],
    room: [[120, 80, 50], [70, 45, 30]],
    none: [[90, 110, 80], [45, 60, 45]],
  };
  const [near, far] = colours[ground];
  const floor = ground === "sea" ? 0.35 + light * 0.65 : light;
  for (let y = horizon; y < side; y++) {
    const t = (y - horizon) / (side - horizon);
    canvas.span(y, 0, side, shade(mix(near, far, t), floor));
  }
  if (ground === "sea") {
    // Light on the water: short glints, thicker under the moon or sun.
    const bright = scene.features.has("moon") || scene.features.has("sun");
    const glint: Rgb = scene.features.has("sun") && scene.time !== "night" ? [255, 220, 160] : [215, 225, 255];
    for (let y = horizon + 2; y < side; y += Math.max(2, Math.round(4 * u))) {
      const depth = (y - horizon) / (side - horizon);
      const width = (6 + depth * 60) * u;
      for (let k = 0; k < 4; k++) {
        const x = random() * side;
        canvas.span(y, x, x + width * random(), [255, 255, 255], 0.08 + 0.1 * light);
      }
      if (bright) {
        const spread = (20 + depth * 90) * u;
        const x = bodyX + (random() - 0.5) * spread * 2;
        canvas.span(y, x - width * 0.6, x + width * 0.6, glint, 0.55 * (1 - depth * 0.5));
      }
    }
    canvas.span(horizon, 0, side, [255, 255, 255], 0.15);
  } else if (ground === "desert" || ground === "snow" || ground === "meadow") {
    // Rolling dunes, drifts or hills: two bands of a lighter and a darker shade.
    for (let band = 0; band < 3; band++) {
      const line = ridge(random, 3);
      const base = horizon + (side - horizon) * (0.2 + band * 0.28);
      const colour = shade(mix(near, far, band * 0.4), light * (band % 2 ? 0.9 : 1.08));
      for (let x = 0; x < side; x++) {
        const top = base + 22 * u * line((x / side) * Math.PI * 2);
        for (let y = Math.floor(top); y < side; y++) canvas.blend(x, y, colour, 0.6);
      }
    }
    if (ground === "meadow") {
      const flower = scene.namedAccent ? scene.accent : ([240, 220, 90] as Rgb);
      for (let i = 0; i < 260 * u * u; i++) {
        const y = horizon + Math.pow(random(), 0.7) * (side - horizon);
        canvas.disc(random() * side, y, (1 + ((y - horizon) / (side - horizon)) * 3) * u, shade(flower, light), 0.9, 1);
      }
    }
  }
}

function paintCity(canvas: Canvas, scene: Scene, random: () => number, horizon: number, u: number): void {
  const side = canvas.width;
  const night = scene.time === "night" || scene.time === "dusk";
  const window: Rgb = scene.namedAccent ? scene.accent : [255, 214, 120];
  for (let row = 0; row < 2; row++) {
    let x = -random() * 30 * u;
    while (x < side) {
      const w = (40 + random() * 70) * u;
      const h = (row === 0 ? 160 + random() * 200 : 80 + random() * 140) * u;
      const top = horizon + (row === 0 ? 0 : 30 * u) - h;
      const body = shade(row === 0 ? [60, 64, 84] : [34, 36, 48], scene.time === "day" ? 1.4 : 1);
      canvas.rect(x, top, x + w - 4 * u, horizon + (row === 0 ? 0 : 30 * u), body);
      for (let wy = top + 10 * u; wy < horizon - 10 * u; wy += 16 * u) {
        for (let wx = x + 8 * u; wx < x + w - 14 * u; wx += 14 * u) {
          if (random() < (night ? 0.5 : 0.2)) canvas.rect(wx, wy, wx + 6 * u, wy + 8 * u, night ? window : [170, 190, 210], night ? 0.9 : 0.6);
        }
      }
      x += w;
    }
  }
}

function paintTrees(canvas: Canvas, scene: Scene, random: () => number, horizon: number, u: number): void {
  const side = canvas.width;
  const light = LIGHT[scene.time];
  const count = scene.ground === "forest" ? 26 : 7;
  const trees = Array.from({ length: count }, () => ({ x: random() * side, depth: random() })).sort((a, b) => a.depth - b.depth);
  for (const { x, depth } of trees) {
    const base = horizon + depth * (canvas.height - horizon) * 0.8;
    const h = (90 + depth * 220) * u;
    const w = h * 0.36;
    const green = shade(mix([26, 70, 40], [10, 40, 20], depth), light * (0.8 + 0.2 * (1 - depth)));
    canvas.rect(x - w * 0.07, base - h * 0.15, x + w * 0.07, base, shade([70, 45, 30], light));
    for (let tier = 0; tier < 3; tier++) {
      const top = base - h + tier * h * 0.22;
      canvas.spike(x, top, x - w * (0.6 + tier * 0.2), x + w * (0.6 + tier * 0.2), top + h * 0.45, green);
    }
  }
}

function paintCastle(canvas: Canvas, scene: Scene, random: () => number, horizon: number, u: number): void {
  const side = canvas.width;
  const colour = shade([50, 48, 62], scene.time === "day" ? 1.5 : 1);
  const cx = side * (0.3 + random() * 0.4);
  const w = 220 * u;
  const wallTop = horizon - 110 * u;
  canvas.rect(cx - w / 2, wallTop, cx + w / 2, horizon + 4 * u, colour);
  for (let x = cx - w / 2; x < cx + w / 2; x += 20 * u) canvas.rect(x, wallTop - 12 * u, x + 10 * u, wallTop, colour);
  for (const dx of [-w / 2, w / 2 - 46 * u, -23 * u]) {
    const tall = (dx === -23 * u ? 230 : 170) * u;
    canvas.rect(cx + dx, horizon - tall, cx + dx + 46 * u, horizon, colour);
    canvas.spike(cx + dx + 23 * u, horizon - tall - 70 * u, cx + dx - 6 * u, cx + dx + 52 * u, horizon - tall, shade(scene.accent, 0.6));
    canvas.rect(cx + dx + 18 * u, horizon - tall + 30 * u, cx + dx + 28 * u, horizon - tall + 48 * u, [255, 210, 120], scene.time === "day" ? 0.3 : 0.9);
  }
  canvas.ellipse(cx, horizon, 22 * u, 40 * u, [20, 18, 24]);
}

function paintFlames(canvas: Canvas, random: () => number, horizon: number, u: number): void {
  const side = canvas.width;
  canvas.glow(side / 2, canvas.height, side * 0.9, [255, 120, 40], 0.5);
  for (let i = 0; i < 40; i++) {
    const x = random() * side;
    const h = (60 + random() * 240) * u;
    const base = horizon + random() * (canvas.height - horizon);
    const w = h * 0.3;
    canvas.spike(x, base - h, x - w, x + w, base, [230, 80, 20], 0.8);
    canvas.spike(x, base - h * 0.7, x - w * 0.6, x + w * 0.6, base, [255, 170, 40], 0.8);
    canvas.spike(x, base - h * 0.4, x - w * 0.3, x + w * 0.3, base, [255, 235, 150], 0.8);
  }
}

function paintRoom(canvas: Canvas, scene: Scene, random: () => number, horizon: number, u: number): void {
  const side = canvas.width;
  const light = Math.max(0.6, LIGHT[scene.time]);
  // Floorboards.
  for (let y = horizon; y < side; y++) canvas.span(y, 0, side, shade(mix([110, 72, 44], [60, 38, 24], (y - horizon) / (side - horizon)), light));
  for (let y = horizon; y < side; y += 26 * u) canvas.span(Math.round(y), 0, side, [40, 25, 15], 0.5);
  // A window with the sky of the time of day, and its light.
  const wx = side * (0.1 + random() * 0.5);
  const [top, low] = SKIES[scene.time];
  for (let y = Math.round(side * 0.14); y < side * 0.46; y++) canvas.span(y, wx, wx + 170 * u, mix(top, low, (y - side * 0.14) / (side * 0.32)));
  if (scene.time === "night") canvas.disc(wx + 120 * u, side * 0.22, 16 * u, [238, 236, 220]);
  canvas.rect(wx + 82 * u, side * 0.14, wx + 88 * u, side * 0.46, [60, 40, 25]);
  canvas.rect(wx, side * 0.3 - 3 * u, wx + 170 * u, side * 0.3 + 3 * u, [60, 40, 25]);
  // Shelves or a hearth, and a table with a lamp.
  const hearth = random() < 0.5;
  const fx = wx > side / 2 ? side * 0.12 : side * 0.62;
  if (hearth) {
    canvas.rect(fx, horizon - 150 * u, fx + 180 * u, horizon, [90, 80, 75]);
    canvas.rect(fx + 40 * u, horizon - 90 * u, fx + 140 * u, horizon, [30, 20, 16]);
    canvas.glow(fx + 90 * u, horizon - 30 * u, 200 * u, [255, 140, 50], 0.45);
    canvas.spike(fx + 90 * u, horizon - 80 * u, fx + 60 * u, fx + 120 * u, horizon, [255, 150, 40], 0.9);
  } else {
    for (let shelf = 0; shelf < 4; shelf++) {
      const y = horizon - (40 + shelf * 60) * u;
      canvas.rect(fx, y, fx + 200 * u, y + 8 * u, [80, 50, 30]);
      for (let bx = fx + 4 * u; bx < fx + 196 * u; bx += (8 + random() * 8) * u) canvas.rect(bx, y - (30 + random() * 16) * u, bx + 7 * u, y, hsl(random() * 360, 0.45, 0.4));
    }
  }
  canvas.rect(side * 0.35, horizon + 40 * u, side * 0.65, horizon + 56 * u, [70, 45, 28]);
  canvas.glow(side * 0.5, horizon + 10 * u, 160 * u, [255, 210, 130], 0.35);
  canvas.disc(side * 0.5, horizon + 18 * u, 12 * u, [255, 225, 150]);
}

/** Head and shoulders filling the frame, in the scene's light: hair, skin, a coat in the accent colour. */
function paintPortrait(canvas: Canvas, scene: Scene, random: () => number): void {
  const side = canvas.width;
  const light = Math.max(0.55, LIGHT[scene.time]);
  const cx = side * (0.46 + random() * 0.08);
  const skin = shade(hsl(20 + random() * 15, 0.45, 0.45 + random() * 0.3), light);
  const hair = shade(hsl(random() * 40, 0.35 + random() * 0.3, 0.12 + random() * 0.5), light);
  const coat = shade(mix([40, 40, 55], scene.accent, scene.namedAccent ? 0.75 : 0.45), light);
  canvas.glow(cx, side * 0.42, side * 0.55, [255, 255, 255], 0.12);
  // Shoulders and chest, then the neck, the head and the hair around it.
  canvas.ellipse(cx, side * 1.02, side * 0.42, side * 0.3, coat);
  canvas.spike(cx, side * 0.78, cx - side * 0.08, cx + side * 0.08, side * 0.9, shade(coat, 0.8));
  canvas.rect(cx - side * 0.055, side * 0.55, cx + side * 0.055, side * 0.74, shade(skin, 0.85));
  canvas.ellipse(cx, side * 0.3, side * 0.16, side * 0.13, hair);
  canvas.ellipse(cx, side * 0.42, side * 0.13, side * 0.17, skin);
  canvas.ellipse(cx, side * 0.29, side * 0.145, side * 0.075, hair);
  for (const dx of [-1, 1]) {
    canvas.ellipse(cx + dx * side * 0.05, side * 0.41, side * 0.018, side * 0.01, [30, 25, 25]);
    canvas.ellipse(cx + dx * side * 0.05, side * 0.385, side * 0.028, side * 0.005, shade(hair, 0.8));
  }
  canvas.ellipse(cx, side * 0.5, side * 0.035, side * 0.008, shade(skin, 0.6));
  if (/\bbeard|bearded\b/.test(scene.words)) canvas.ellipse(cx, side * 0.53, side * 0.11, side * 0.07, /white|grey|gray|silver/.test(scene.words) ? [225, 225, 220] : hair);
}

function paintFigure(canvas: Canvas, scene: Scene, random: () => number, horizon: number, u: number): void {
  if (scene.portrait) return paintPortrait(canvas, scene, random);
  const side = canvas.width;
  const cx = side * (0.25 + random() * 0.5);
  const feet = Math.min(side - 10 * u, horizon + (canvas.height - horizon) * 0.75);
  const h = 300 * u;
  const cloak = shade(mix([30, 28, 40], scene.accent, scene.namedAccent ? 0.6 : 0.3), scene.time === "day" ? 1.2 : 0.8);
  canvas.ellipse(cx, feet, 70 * u, 10 * u, [0, 0, 0], 0.3);
  canvas.spike(cx, feet - h * 0.8, cx - h * 0.22, cx + h * 0.22, feet, cloak);
  canvas.ellipse(cx, feet - h * 0.66, h * 0.12, h * 0.09, cloak);
  canvas.disc(cx, feet - h * 0.86, h * 0.085, shade([225, 190, 160], scene.time === "night" ? 0.5 : 0.95));
  canvas.ellipse(cx, feet - h * 0.9, h * 0.095, h * 0.055, shade(cloak, 0.8));
}

function paintAbstract(canvas: Canvas, scene: Scene, random: () => number): void {
  const side = canvas.width;
  const hue = scene.seed % 360;
  const a = hsl(hue, 0.5, 0.22);
  const b = hsl((hue + 40 + random() * 60) % 360, 0.55, 0.55);
  const angle = random() * Math.PI;
  const dx = Math.cos(angle);
  const dy = Math.sin(angle);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const t = ((x / side - 0.5) * dx + (y / side - 0.5) * dy) * 0.7 + 0.5;
      canvas.blend(x, y, mix(a, b, Math.min(1, Math.max(0, t))), 1);
    }
  }
  const shapes = 5 + Math.floor(random() * 6);
  for (let i = 0; i < shapes; i++) {
    const colour = i % 3 === 0 ? scene.accent : hsl((hue + random() * 180) % 360, 0.6, 0.35 + random() * 0.4);
    const x = random() * side;
    const y = random() * side;
    const r = side * (0.05 + random() * 0.2);
    if (random() < 0.5) canvas.disc(x, y, r, colour, 0.55, 2);
    else canvas.spike(x, y - r, x - r, x + r, y + r * 0.7, colour, 0.5);
  }
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
