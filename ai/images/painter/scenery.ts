/**
 * The offline painter's layers (ai/images/offline-painter.ts composes them
 * in `paintScene`): the sky colours and light of each time of day, the
 * ground, buildings, trees, a castle, flames, a room, a figure or portrait,
 * and the abstract composition of a prompt that names nothing paintable.
 * Each draws on the canvas with the scene's seeded `random`; `horizon` is
 * the horizon's row in pixels and `u` the scale (side / 768).
 */
import { Canvas, hsl, mix, type Rgb, shade } from "./canvas.ts";
import type { Ground, Scene, TimeOfDay } from "./scene.ts";

/** Sky colours (top, horizon) by time of day. */
export const SKIES: Record<TimeOfDay, [Rgb, Rgb]> = {
  night: [[6, 10, 34], [28, 44, 92]],
  dusk: [[58, 40, 110], [246, 138, 78]],
  dawn: [[110, 140, 200], [250, 190, 150]],
  day: [[70, 130, 215], [185, 215, 240]],
};

/** How the light of the time of day tints the ground: a factor for its colours. */
export const LIGHT: Record<TimeOfDay, number> = { night: 0.35, dusk: 0.7, dawn: 0.85, day: 1 };

/** A smooth ridge line across the width: the sum of a few sines with seeded phases, in [-1, 1]. */
export function ridge(random: () => number, octaves = 4): (x: number) => number {
  const waves = Array.from({ length: octaves }, (_, i) => ({ f: (i + 1) * (1.5 + random() * 2), p: random() * Math.PI * 2, a: 1 / (i + 1) }));
  const total = waves.reduce((sum, w) => sum + w.a, 0);
  return (x) => waves.reduce((sum, w) => sum + w.a * Math.sin(x * w.f + w.p), 0) / total;
}

/** The ground below the horizon, near to far in its two colours: glints on the sea (a path of light under the sun or moon at column `bodyX`), rolling dunes, drifts or hills, flowers on a meadow. */
export function paintGround(canvas: Canvas, scene: Scene, random: () => number, horizon: number, bodyX: number, u: number): void {
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

/** A skyline of seeded towers with lit windows, standing on the horizon. */
export function paintCity(canvas: Canvas, scene: Scene, random: () => number, horizon: number, u: number): void {
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

/** Conifers along the horizon, darker and larger toward the front. */
export function paintTrees(canvas: Canvas, scene: Scene, random: () => number, horizon: number, u: number): void {
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

/** A castle's silhouette on the horizon: a keep, towers and battlements. */
export function paintCastle(canvas: Canvas, scene: Scene, random: () => number, horizon: number, u: number): void {
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

/** Flames rising from the horizon in the colours of fire. */
export function paintFlames(canvas: Canvas, random: () => number, horizon: number, u: number): void {
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

/** An interior below the wall: floorboards, a window on the time of day's sky, and a hearth or shelves. */
export function paintRoom(canvas: Canvas, scene: Scene, random: () => number, horizon: number, u: number): void {
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

/** A person standing on the ground, or the head and shoulders of a portrait filling the frame. */
export function paintFigure(canvas: Canvas, scene: Scene, random: () => number, horizon: number, u: number): void {
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

export function paintAbstract(canvas: Canvas, scene: Scene, random: () => number): void {
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

