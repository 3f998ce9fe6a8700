/**
 * The offline painter's pixels (ai/images/offline-painter.ts): RGB colours,
 * an RGB canvas with alpha blending and the shapes the layers are drawn with.
 */

/** A colour as red, green, blue, each 0–255. */
export type Rgb = readonly [number, number, number];

/** HSL (h in [0, 360), s and l in [0, 1]) to RGB bytes. */
export function hsl(h: number, s: number, l: number): Rgb {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

/** An RGB canvas with alpha blending; out-of-range pixels are ignored. */
export class Canvas {
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


/** `a` blended toward `b` by `t` in [0, 1]. */
export const mix = (a: Rgb, b: Rgb, t: number): Rgb => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
/** `c` with each channel scaled by `f` (below 1 darker, above 1 lighter). */
export const shade = (c: Rgb, f: number): Rgb => [c[0] * f, c[1] * f, c[2] * f];
