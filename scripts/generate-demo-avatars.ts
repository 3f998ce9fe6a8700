/**
 * Paints the demo characters' avatars: one SVG per character at
 * web/public/avatars/demo/<slug>.svg (served as /avatars/demo/<slug>.svg).
 *
 *   sh scripts/node.sh scripts/generate-demo-avatars.ts [--sheet FILE.html]
 *
 * Each picture follows the character's `art` recipe in
 * scripts/data/demo-characters.ts: a three-stop sky, stars or weather, a sun,
 * moon or planet, two or three horizon silhouettes, the emblem in the middle
 * with a glow behind it, a vignette and a film grain. 3:4 (300×400) with the
 * emblem in the centre square, so both 3:4 and square crops work. No text.
 * Deterministic: the same data gives byte-identical files (randomness is a
 * PRNG seeded by the slug). `--sheet` also writes a contact sheet page.
 *
 * Beside each SVG, a PNG preview (<slug>.png, 300×400, palette PNG) for link
 * previews, whose crawlers do not render SVG (worker/lib/share-meta.ts uses
 * it as `og:image`). Rasterised with sharp (libvips, offline), without the
 * film grain: noise makes a PNG several times larger and slow to render.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import sharp from "sharp";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fnv1a, mulberry32 } from "../schema/seeded-random.ts";
import { DEMO_CHARACTERS, type DemoArt, type DemoCharacter, type DemoEmblem } from "./data/demo-characters.ts";
import { ROOT } from "./lib/tools.ts";

const W = 300;
const H = 400;
/** Emblem centre and scale (the emblem is drawn in a 100×100 box). */
const EX = 150;
const EY = 192;
const ES = 1.6;

// ---------------------------------------------------------------------------
// Small helpers

/** Rounds for output: integers stay integers, others get one decimal. */
const f = (n: number) => String(Math.round(n * 10) / 10);

function rgb(hex: string): [number, number, number] {
  const v = Number.parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

/** Linear mix of two #rrggbb colours (t = 0 → a, 1 → b). */
function mix(a: string, b: string, t: number): string {
  const [r1, g1, b1] = rgb(a);
  const [r2, g2, b2] = rgb(b);
  const c = (x: number, y: number) => Math.round(x + (y - x) * t).toString(16).padStart(2, "0");
  return `#${c(r1, r2)}${c(g1, g2)}${c(b1, b2)}`;
}

/** Closed polygon path from points. */
const poly = (pts: [number, number][]) => `M${pts.map(([x, y]) => `${f(x)} ${f(y)}`).join("L")}Z`;

/** Points of a regular star with `n` tips. */
function starPoints(cx: number, cy: number, outer: number, inner: number, n: number, rot = -90): [number, number][] {
  const pts: [number, number][] = [];
  for (let i = 0; i < n * 2; i++) {
    const a = ((rot + (i * 180) / n) * Math.PI) / 180;
    const r = i % 2 === 0 ? outer : inner;
    pts.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  }
  return pts;
}

// ---------------------------------------------------------------------------
// Emblems: SVG drawn in a 100×100 box; A = accent, D = dark detail, G = glow.

interface Ink {
  A: string;
  D: string;
  G: string;
}

function gearPath(): string {
  const pts: [number, number][] = [];
  const teeth = 10;
  for (let i = 0; i < teeth * 4; i++) {
    const a = (i / (teeth * 4)) * Math.PI * 2;
    const r = i % 4 < 2 ? 44 : 34;
    pts.push([50 + r * Math.cos(a), 50 + r * Math.sin(a)]);
  }
  return poly(pts);
}

function snowflake(ink: Ink): string {
  let d = "";
  for (let i = 0; i < 6; i++) {
    const a = (i * Math.PI) / 3 - Math.PI / 2;
    const x = (r: number, da = 0) => f(50 + r * Math.cos(a + da));
    const y = (r: number, da = 0) => f(50 + r * Math.sin(a + da));
    d += `M50 50L${x(44)} ${y(44)}`;
    for (const [r, len] of [[20, 12], [32, 9]] as const) {
      const bx = 50 + r * Math.cos(a);
      const by = 50 + r * Math.sin(a);
      for (const s of [-1, 1]) {
        const b = a + s * 0.8;
        d += `M${f(bx)} ${f(by)}L${f(bx + len * Math.cos(b))} ${f(by + len * Math.sin(b))}`;
      }
    }
  }
  return `<path d="${d}" fill="none" stroke="${ink.A}" stroke-width="5" stroke-linecap="round"/><circle cx="50" cy="50" r="7" fill="${ink.A}"/>`;
}

function wheat(ink: Ink): string {
  let g = `<path d="M50 96Q48 60 50 14" fill="none" stroke="${ink.A}" stroke-width="3"/>`;
  for (let i = 0; i < 6; i++) {
    const y = 22 + i * 10;
    g += `<ellipse cx="42" cy="${y}" rx="5" ry="10" transform="rotate(-30 42 ${y})" fill="${ink.A}"/>`;
    g += `<ellipse cx="58" cy="${y}" rx="5" ry="10" transform="rotate(30 58 ${y})" fill="${ink.A}"/>`;
  }
  return `${g}<ellipse cx="50" cy="12" rx="4" ry="9" fill="${ink.A}"/>`;
}

function shell(ink: Ink): string {
  const lobes = 7;
  let d = "M50 88";
  let ridges = "";
  for (let i = 0; i <= lobes; i++) {
    const a = Math.PI + (i / lobes) * Math.PI;
    const x = 50 + 44 * Math.cos(a);
    const y = 60 + 44 * Math.sin(a);
    if (i === 0) d += `L${f(x)} ${f(y)}`;
    else {
      const m = Math.PI + ((i - 0.5) / lobes) * Math.PI;
      d += `Q${f(50 + 52 * Math.cos(m))} ${f(60 + 52 * Math.sin(m))} ${f(x)} ${f(y)}`;
    }
    if (i > 0 && i < lobes) ridges += `M50 86L${f(50 + 40 * Math.cos(a))} ${f(60 + 40 * Math.sin(a))}`;
  }
  return `<path d="${d}Z" fill="${ink.A}"/><path d="${ridges}" stroke="${ink.D}" stroke-width="2.5" opacity=".55"/><path d="M38 86H62L58 94H42Z" fill="${ink.A}"/>`;
}

const EMBLEMS: Record<DemoEmblem, (ink: Ink) => string> = {
  potion: ({ A, D, G }) =>
    `<circle cx="50" cy="64" r="28" fill="${A}"/><rect x="42" y="18" width="16" height="26" fill="${A}"/><rect x="38" y="12" width="24" height="9" rx="3" fill="${D}"/>` +
    `<path d="M22.5 60Q36 52 50 60T77.5 60A28 28 0 0 0 22.5 60Z" fill="${D}" opacity=".3"/><circle cx="42" cy="72" r="4" fill="${G}"/><circle cx="56" cy="80" r="3" fill="${G}"/><circle cx="60" cy="68" r="2" fill="${G}"/>`,
  anchor: ({ A }) =>
    `<g fill="none" stroke="${A}" stroke-width="7" stroke-linecap="round"><circle cx="50" cy="16" r="8"/><path d="M50 24V88M30 38H70M16 60Q20 88 50 88Q80 88 84 60"/></g><path d="M8 66L16 52L26 64ZM74 64L84 52L92 66Z" fill="${A}"/>`,
  robot: ({ A, D, G }) =>
    `<path d="M50 12V26" stroke="${A}" stroke-width="4"/><circle cx="50" cy="10" r="5" fill="${G}"/><rect x="18" y="26" width="64" height="54" rx="16" fill="${A}"/>` +
    `<rect x="10" y="44" width="8" height="18" rx="3" fill="${A}"/><rect x="82" y="44" width="8" height="18" rx="3" fill="${A}"/><rect x="26" y="38" width="48" height="24" rx="12" fill="${D}"/>` +
    `<circle cx="38" cy="50" r="6" fill="${G}"/><circle cx="62" cy="50" r="6" fill="${G}"/><rect x="38" y="68" width="24" height="4" rx="2" fill="${D}"/><rect x="34" y="82" width="32" height="10" rx="4" fill="${A}"/>`,
  fedora: ({ A, D }) =>
    `<ellipse cx="50" cy="70" rx="46" ry="11" fill="${A}"/><path d="M24 70Q22 40 34 30Q42 36 50 30Q58 36 66 30Q78 40 76 70Z" fill="${A}"/><path d="M24.5 58H75.5L76 68H24Z" fill="${D}"/>`,
  bat: ({ A }) =>
    `<path d="M50 40L46 30L44 38C36 32 22 30 6 38C14 42 16 50 14 60C20 53 28 55 32 62C36 55 42 55 46 64L50 70L54 64C58 55 64 55 68 62C72 55 80 53 86 60C84 50 86 42 94 38C78 30 64 32 56 38L54 30Z" fill="${A}"/>`,
  cupcake: ({ A, D, G }) =>
    `<path d="M26 56H74L66 90H34Z" fill="${D}"/><path d="M38 56L41 90M50 56V90M62 56L59 90" stroke="${A}" stroke-width="2" opacity=".6"/>` +
    `<path d="M22 58C16 48 24 38 32 40C30 28 44 24 50 30C56 24 70 28 68 40C76 38 84 48 78 58Z" fill="${A}"/><circle cx="50" cy="22" r="7" fill="${G}"/>`,
  circuit: ({ A, D, G }) =>
    `<path d="M38 30V14M50 30V8M62 30V14M38 70V86M50 70V92M62 70V86M30 38H14M30 50H8M30 62H14M70 38H86M70 50H92M70 62H86" stroke="${A}" stroke-width="4" stroke-linecap="round"/>` +
    `<rect x="28" y="28" width="44" height="44" rx="6" fill="${A}"/><rect x="38" y="38" width="24" height="24" rx="3" fill="${D}"/><circle cx="50" cy="50" r="6" fill="${G}"/>` +
    `<circle cx="50" cy="8" r="4" fill="${G}"/><circle cx="92" cy="50" r="4" fill="${G}"/><circle cx="8" cy="50" r="4" fill="${G}"/><circle cx="50" cy="92" r="4" fill="${G}"/>`,
  radio: ({ A, D, G }) =>
    `<path d="M24 36L12 10" stroke="${A}" stroke-width="4" stroke-linecap="round"/><circle cx="12" cy="10" r="4" fill="${G}"/><rect x="12" y="34" width="76" height="52" rx="8" fill="${A}"/>` +
    `<circle cx="36" cy="60" r="15" fill="${D}"/><path d="M24 54H48M22 60H50M24 66H48" stroke="${A}" stroke-width="2" opacity=".5"/><rect x="58" y="44" width="22" height="10" rx="2" fill="${D}"/>` +
    `<circle cx="64" cy="70" r="6" fill="${D}"/><circle cx="78" cy="70" r="4" fill="${G}"/>`,
  crown: ({ A, D, G }) =>
    `<path d="M12 72L18 30L36 52L50 20L64 52L82 30L88 72Z" fill="${A}"/><rect x="12" y="72" width="76" height="14" rx="3" fill="${A}"/><path d="M12 78H88" stroke="${D}" stroke-width="2" opacity=".5"/>` +
    `<circle cx="18" cy="28" r="5" fill="${A}"/><circle cx="50" cy="18" r="6" fill="${A}"/><circle cx="82" cy="28" r="5" fill="${A}"/><circle cx="50" cy="58" r="6" fill="${G}"/><circle cx="32" cy="64" r="4" fill="${D}"/><circle cx="68" cy="64" r="4" fill="${D}"/>`,
  gargoyle: ({ A, D, G }) =>
    `<path d="M30 30L16 6L40 22ZM70 30L84 6L60 22ZM26 42L6 32L26 58ZM74 42L94 32L74 58Z" fill="${A}"/>` +
    `<path d="M50 18C67 18 77 31 77 48C77 65 66 82 50 86C34 82 23 65 23 48C23 31 33 18 50 18Z" fill="${A}"/>` +
    `<path d="M31 40L46 46M69 40L54 46" stroke="${D}" stroke-width="3.5" stroke-linecap="round"/><circle cx="39" cy="51" r="5" fill="${G}"/><circle cx="61" cy="51" r="5" fill="${G}"/>` +
    `<path d="M45 50L55 50L59 64Q50 68 41 64Z" fill="${D}" opacity=".45"/><path d="M33 69Q50 82 67 69Q50 74 33 69Z" fill="${D}"/><path d="M40 70L42 76L45 71ZM55 71L58 76L60 70Z" fill="${A}"/>`,
  quill: ({ A, D }) =>
    `<path d="M86 8C58 14 38 34 30 66L36 70C52 58 76 36 86 8Z" fill="${A}"/><path d="M84 12C64 28 46 48 32 68" stroke="${D}" stroke-width="2" opacity=".5"/><path d="M32 66L22 88" stroke="${A}" stroke-width="3" stroke-linecap="round"/>` +
    `<path d="M10 94Q10 78 22 78H30Q42 78 42 94Z" fill="${D}"/>`,
  "bubble-helmet": ({ A, D, G }) =>
    `<rect x="22" y="74" width="56" height="16" rx="4" fill="${A}"/><circle cx="50" cy="46" r="34" fill="${A}"/><circle cx="50" cy="46" r="17" fill="${D}"/><circle cx="50" cy="46" r="17" fill="none" stroke="${G}" stroke-width="3"/>` +
    `<path d="M44 38A9 9 0 0 1 54 34" stroke="${G}" stroke-width="3" stroke-linecap="round" fill="none"/><circle cx="22" cy="46" r="6" fill="${D}"/><circle cx="78" cy="46" r="6" fill="${D}"/><circle cx="50" cy="17" r="4" fill="${D}"/>`,
  book: ({ A, D }) =>
    `<path d="M50 30Q32 20 10 26V80Q32 74 50 84Z" fill="${A}"/><path d="M50 30Q68 20 90 26V80Q68 74 50 84Z" fill="${A}"/><path d="M50 30V84" stroke="${D}" stroke-width="2"/>` +
    `<path d="M18 38Q32 35 42 40M18 48Q32 45 42 50M18 58Q32 55 42 60M58 40Q68 35 82 38M58 50Q68 45 82 48M58 60Q68 55 82 58" stroke="${D}" stroke-width="2" opacity=".4" fill="none"/>`,
  sword: ({ A, D, G }) =>
    `<path d="M50 4L57 16V66H43V16Z" fill="${A}"/><path d="M50 14V62" stroke="${D}" stroke-width="2" opacity=".4"/><rect x="26" y="64" width="48" height="8" rx="4" fill="${A}"/>` +
    `<rect x="45" y="72" width="10" height="16" fill="${D}"/><circle cx="50" cy="92" r="6" fill="${A}"/><circle cx="50" cy="68" r="3" fill="${G}"/>`,
  contract: ({ A, D, G }) =>
    `<rect x="24" y="14" width="52" height="72" fill="${A}"/><rect x="18" y="8" width="64" height="10" rx="5" fill="${A}"/><rect x="18" y="82" width="64" height="10" rx="5" fill="${A}"/>` +
    `<path d="M32 28H68M32 36H68M32 44H62M32 52H68M32 60H50" stroke="${D}" stroke-width="2.5" opacity=".45"/><path d="M52 68Q58 64 64 70T74 66" stroke="${D}" stroke-width="2" fill="none"/>` +
    `<circle cx="38" cy="74" r="9" fill="${G}"/><circle cx="38" cy="74" r="5" fill="${D}" opacity=".35"/>`,
  dragon: ({ A, D, G }) =>
    `<path d="M50 8L45 17L38 12L42 24L44 34C30 26 16 22 3 27C11 31 13 37 11 45C17 41 23 43 25 49C29 45 35 47 37 53H44L46 66C46 77 51 85 59 90C63 93 67 92 69 88C62 88 57 82 55 72L54 53H63C65 47 71 45 75 49C77 43 83 41 89 45C87 37 89 31 97 27C84 22 70 26 56 34L58 24L62 12L55 17Z" fill="${A}"/>` +
    `<path d="M44 36C34 32 22 30 12 30M56 36C66 32 78 30 88 30M46 44C38 42 30 44 26 48M54 44C62 42 70 44 74 48" fill="none" stroke="${D}" stroke-width="2" opacity=".4"/><circle cx="47" cy="22" r="2" fill="${G}"/><circle cx="53" cy="22" r="2" fill="${G}"/>`,
  rocket: ({ A, D, G }) =>
    `<path d="M40 76Q50 100 60 76Z" fill="${G}"/><path d="M50 6C64 20 67 44 62 74H38C33 44 36 20 50 6Z" fill="${A}"/><path d="M38 52L24 72V80L38 72ZM62 52L76 72V80L62 72Z" fill="${A}"/>` +
    `<circle cx="50" cy="36" r="8" fill="${D}"/><circle cx="50" cy="36" r="4" fill="${G}" opacity=".7"/><path d="M42 62H58" stroke="${D}" stroke-width="2" opacity=".5"/>`,
  key: ({ A, D }) =>
    `<circle cx="50" cy="24" r="16" fill="none" stroke="${A}" stroke-width="7"/><circle cx="50" cy="24" r="5" fill="${A}"/><rect x="46" y="38" width="8" height="52" fill="${A}"/>` +
    `<rect x="54" y="70" width="14" height="6" fill="${A}"/><rect x="54" y="82" width="10" height="6" fill="${A}"/><path d="M42 46H58" stroke="${D}" stroke-width="2" opacity=".4"/>`,
  microphone: ({ A, D }) =>
    `<rect x="34" y="8" width="32" height="48" rx="16" fill="${A}"/><path d="M34 24H66M34 32H66M34 40H66M50 8V56" stroke="${D}" stroke-width="2" opacity=".4"/>` +
    `<path d="M24 40Q24 68 50 68Q76 68 76 40" fill="none" stroke="${A}" stroke-width="5"/><path d="M50 68V86" stroke="${A}" stroke-width="5"/><rect x="32" y="86" width="36" height="7" rx="3" fill="${A}"/>`,
  katana: ({ A, D, G }) =>
    `<g transform="rotate(38 50 50)"><path d="M50 -4Q57 22 55 64H45Q49 22 50 -4Z" fill="${A}"/><path d="M51 4Q55 30 53 60" stroke="${D}" stroke-width="1.5" opacity=".4" fill="none"/>` +
    `<ellipse cx="50" cy="66" rx="12" ry="4" fill="${G}"/><rect x="45.5" y="68" width="9" height="30" rx="2" fill="${D}"/><path d="M46 74L54 78M46 82L54 86M46 90L54 94" stroke="${A}" stroke-width="1.5" opacity=".7"/></g>`,
  ghost: ({ A, D }) =>
    `<path d="M24 90V44C24 24 36 12 50 12C64 12 76 24 76 44V90L67 81L58 90L50 81L42 90L33 81Z" fill="${A}" opacity=".92"/><ellipse cx="41" cy="44" rx="5" ry="7" fill="${D}"/><ellipse cx="59" cy="44" rx="5" ry="7" fill="${D}"/><ellipse cx="50" cy="62" rx="6" ry="8" fill="${D}" opacity=".8"/>`,
  tankard: ({ A, D }) =>
    `<path d="M70 42H80Q88 42 88 52V64Q88 74 80 74H70" fill="none" stroke="${A}" stroke-width="7"/><rect x="22" y="34" width="50" height="56" rx="5" fill="${A}"/><path d="M22 46H72M22 80H72" stroke="${D}" stroke-width="3" opacity=".5"/>` +
    `<circle cx="28" cy="32" r="9" fill="#fff8e6"/><circle cx="42" cy="26" r="11" fill="#fff8e6"/><circle cx="58" cy="28" r="10" fill="#fff8e6"/><circle cx="68" cy="34" r="7" fill="#fff8e6"/><rect x="26" y="30" width="44" height="8" fill="#fff8e6"/>`,
  harp: ({ A }) =>
    `<path d="M28 92V14Q48 10 62 28Q74 44 86 44Q84 62 70 72L28 92" fill="none" stroke="${A}" stroke-width="7" stroke-linejoin="round"/>` +
    `<path d="M38 20V88M48 20V83M58 28V78M68 40V73M78 46V64" stroke="${A}" stroke-width="1.5" opacity=".85"/>`,
  mask: ({ A, D }) =>
    `<path d="M8 40C20 28 40 30 50 40C60 30 80 28 92 40C90 58 76 68 62 62C56 58 52 56 50 56C48 56 44 58 38 62C24 68 10 58 8 40Z" fill="${A}"/>` +
    `<path d="M24 46Q33 38 42 46Q33 52 24 46ZM58 46Q67 38 76 46Q67 52 58 46Z" fill="${D}"/><path d="M50 60V92" stroke="${A}" stroke-width="4" stroke-linecap="round"/>`,
  gear: ({ A, D }) => `<path d="${gearPath()}" fill="${A}"/><circle cx="50" cy="50" r="14" fill="${D}"/><circle cx="50" cy="50" r="24" fill="none" stroke="${D}" stroke-width="2" opacity=".35"/>`,
  wolf: ({ A, D, G }) =>
    `<path d="M50 90L32 72L22 52L18 14L38 32H62L82 14L78 52L68 72Z" fill="${A}"/><path d="M26 26L34 36M74 26L66 36" stroke="${D}" stroke-width="3" opacity=".4"/>` +
    `<path d="M34 50L44 54L36 56ZM66 50L56 54L64 56Z" fill="${G}"/><path d="M44 74H56L50 82Z" fill="${D}"/><path d="M40 62L50 70L60 62" stroke="${D}" stroke-width="2" fill="none" opacity=".4"/>`,
  wheat,
  "star-badge": ({ A, D }) => {
    const tips = starPoints(50, 50, 44, 24, 6);
    const balls = tips.filter((_, i) => i % 2 === 0).map(([x, y]) => `<circle cx="${f(x)}" cy="${f(y)}" r="5" fill="${A}"/>`).join("");
    return `<path d="${poly(tips)}" fill="${A}"/>${balls}<circle cx="50" cy="50" r="14" fill="none" stroke="${D}" stroke-width="3" opacity=".5"/>`;
  },
  dagger: ({ A, D, G }) =>
    `<g transform="rotate(-35 50 50)"><path d="M50 6L57 20V60H43V20Z" fill="${A}"/><path d="M50 16V56" stroke="${D}" stroke-width="2" opacity=".4"/><path d="M30 60H70L66 68H34Z" fill="${A}"/>` +
    `<rect x="45" y="68" width="10" height="20" fill="${D}"/><circle cx="50" cy="92" r="6" fill="${G}"/></g>`,
  heart: ({ A, D }) =>
    `<path d="M50 88C18 64 8 46 12 30C16 14 38 10 50 28C62 10 84 14 88 30C92 46 82 64 50 88Z" fill="${A}"/>` +
    `<path d="M18 46H36L42 34L50 62L58 40L62 46H82" fill="none" stroke="${D}" stroke-width="3.5" stroke-linejoin="round" opacity=".7"/>`,
  snowflake,
  rose: ({ A, D }) =>
    `<path d="M50 96Q46 76 50 58" stroke="${D}" stroke-width="4" fill="none"/><path d="M48 80Q34 70 26 76Q36 86 48 80ZM50 70Q62 60 72 66Q62 76 50 70Z" fill="${D}"/>` +
    `<path d="M50 60C30 60 22 44 28 28C34 32 38 34 40 38C40 26 46 18 50 16C54 18 60 26 60 38C62 34 66 32 72 28C78 44 70 60 50 60Z" fill="${A}"/>` +
    `<path d="M40 38Q50 46 60 38M44 28Q50 34 56 28" stroke="${D}" stroke-width="2" fill="none" opacity=".45"/>`,
  shell,
  trophy: ({ A, D }) =>
    `<path d="M28 14H72V34Q72 60 50 62Q28 60 28 34Z" fill="${A}"/><path d="M28 22H16Q14 44 32 48M72 22H84Q86 44 68 48" fill="none" stroke="${A}" stroke-width="5"/>` +
    `<rect x="44" y="60" width="12" height="16" fill="${A}"/><rect x="30" y="76" width="40" height="12" rx="2" fill="${A}"/><path d="${poly(starPoints(50, 34, 10, 4.5, 5))}" fill="${D}" opacity=".5"/>`,
  guitar: ({ A, D }) =>
    `<g transform="rotate(32 50 50)"><rect x="46" y="-2" width="8" height="52" fill="${D}"/><rect x="44" y="-8" width="12" height="12" rx="2" fill="${A}"/>` +
    `<circle cx="50" cy="60" r="16" fill="${A}"/><circle cx="50" cy="84" r="20" fill="${A}"/><rect x="38" y="64" width="24" height="14" fill="${A}"/><circle cx="50" cy="66" r="6" fill="${D}"/><rect x="42" y="86" width="16" height="4" fill="${D}"/>` +
    `<path d="M48 0V88M52 0V88" stroke="${A}" stroke-width=".8" opacity=".8"/></g>`,
  lantern: ({ A, G }) =>
    `<circle cx="50" cy="10" r="6" fill="none" stroke="${A}" stroke-width="3"/><path d="M36 24H64L58 16H42Z" fill="${A}"/><rect x="32" y="24" width="36" height="6" fill="${A}"/>` +
    `<rect x="34" y="30" width="32" height="48" fill="${G}" opacity=".9"/><path d="M50 66Q42 58 50 44Q58 58 50 66Z" fill="#ffffff" opacity=".8"/>` +
    `<path d="M34 30V78M66 30V78M50 30V40M50 70V78" stroke="${A}" stroke-width="3"/><rect x="30" y="78" width="40" height="8" rx="2" fill="${A}"/>`,
  wand: ({ A, G }) =>
    `<path d="M22 90L56 44" stroke="${A}" stroke-width="6" stroke-linecap="round"/><path d="${poly(starPoints(62, 34, 22, 9, 5, -80))}" fill="${A}"/>` +
    `<path d="${poly(starPoints(84, 72, 7, 2.5, 4))}" fill="${G}"/><path d="${poly(starPoints(26, 36, 6, 2, 4))}" fill="${G}"/><path d="${poly(starPoints(86, 14, 5, 2, 4))}" fill="${G}"/>`,
  eye: ({ A, D, G }) =>
    `<path d="M6 50Q50 4 94 50Q50 96 6 50Z" fill="${A}"/><circle cx="50" cy="50" r="19" fill="${D}"/><circle cx="50" cy="50" r="8" fill="${G}"/><circle cx="56" cy="44" r="4" fill="#ffffff" opacity=".8"/>`,
  cat: ({ A, D, G }) =>
    `<path d="M22 40L20 10L42 28H58L80 10L78 40Q88 70 50 84Q12 70 22 40Z" fill="${A}"/><path d="M34 48Q40 42 46 48Q40 54 34 48ZM54 48Q60 42 66 48Q60 54 54 48Z" fill="${G}"/>` +
    `<path d="M46 60H54L50 65Z" fill="${D}"/><path d="M40 64L14 58M40 68L14 72M60 64L86 58M60 68L86 72" stroke="${D}" stroke-width="1.5" opacity=".5"/><path d="M26 22L32 30M74 22L68 30" stroke="${D}" stroke-width="3" opacity=".3"/>`,
  hourglass: ({ A, D, G }) =>
    `<rect x="22" y="8" width="56" height="8" rx="3" fill="${A}"/><rect x="22" y="84" width="56" height="8" rx="3" fill="${A}"/><path d="M30 16H70Q70 40 54 50Q70 60 70 84H30Q30 60 46 50Q30 40 30 16Z" fill="${D}" opacity=".55"/>` +
    `<path d="M36 30H64Q60 42 50 48Q40 42 36 30ZM34 84Q38 66 50 64Q62 66 66 84Z" fill="${G}"/><path d="M50 48V66" stroke="${G}" stroke-width="1.5"/><path d="M26 16V84M74 16V84" stroke="${A}" stroke-width="4"/>`,
  skull: ({ A, D }) =>
    `<path d="M18 46C18 24 32 10 50 10C68 10 82 24 82 46C82 58 76 64 70 68V82H30V68C24 64 18 58 18 46Z" fill="${A}"/><circle cx="36" cy="48" r="10" fill="${D}"/><circle cx="64" cy="48" r="10" fill="${D}"/>` +
    `<path d="M50 58L45 68H55Z" fill="${D}"/><path d="M40 74V82M50 74V82M60 74V82" stroke="${D}" stroke-width="2.5"/>`,
  shield: ({ A, D, G }) =>
    `<path d="M18 14H82V46C82 68 68 82 50 92C32 82 18 68 18 46Z" fill="${A}"/><path d="M28 22H72V46C72 62 62 74 50 82C38 74 28 62 28 46Z" fill="${D}" opacity=".35"/><path d="M50 22V82M28 44H72" stroke="${G}" stroke-width="5"/>`,
  mushroom: ({ A, D, G }) =>
    `<path d="M40 58Q38 78 34 90H62Q58 78 58 58Z" fill="#f4ecdf"/><path d="M10 60Q10 18 50 16Q90 18 90 60Z" fill="${A}"/><circle cx="32" cy="40" r="6" fill="${G}"/><circle cx="56" cy="30" r="5" fill="${G}"/><circle cx="70" cy="48" r="6" fill="${G}"/><circle cx="46" cy="50" r="4" fill="${G}"/>` +
    `<path d="M72 90Q72 80 74 74H84Q84 82 86 90Z" fill="#f4ecdf"/><path d="M66 76Q68 62 79 62Q90 62 92 76Z" fill="${A}"/><path d="M10 60H90" stroke="${D}" stroke-width="2" opacity=".4"/>`,
  compass: ({ A, D, G }) =>
    `<circle cx="50" cy="50" r="40" fill="none" stroke="${A}" stroke-width="5"/><circle cx="50" cy="50" r="32" fill="none" stroke="${A}" stroke-width="1.5" stroke-dasharray="2 6"/>` +
    `<path d="M50 14L58 50H42Z" fill="${G}"/><path d="M50 86L58 50H42Z" fill="${A}"/><path d="M14 50L50 44V56ZM86 50L50 44V56Z" fill="${A}" opacity=".7"/><circle cx="50" cy="50" r="5" fill="${D}"/>`,
};

// ---------------------------------------------------------------------------
// Scene

function celestial(art: DemoArt, rnd: () => number): string {
  // Left or right third, so the light never sits behind the emblem.
  const x = (rnd() < 0.5 ? 62 : 198) + Math.round(rnd() * 40);
  const y = 70 + Math.round(rnd() * 30);
  const g = art.glow;
  const halo = `<circle cx="${x}" cy="${y}" r="90" fill="url(#h)"/>`;
  switch (art.celestial) {
    case "moon":
      return `${halo}<circle cx="${x}" cy="${y}" r="30" fill="${g}"/><circle cx="${x - 9}" cy="${y - 6}" r="7" fill="${mix(g, art.sky[1], 0.25)}"/><circle cx="${x + 10}" cy="${y + 9}" r="5" fill="${mix(g, art.sky[1], 0.2)}"/><circle cx="${x + 6}" cy="${y - 14}" r="3" fill="${mix(g, art.sky[1], 0.2)}"/>`;
    case "crescent":
      return `${halo}<path d="M${x} ${y - 30}A30 30 0 1 0 ${x} ${y + 30}A40 40 0 0 1 ${x} ${y - 30}Z" fill="${g}"/>`;
    case "sun":
      return `${halo}<circle cx="${x}" cy="${y + 40}" r="36" fill="${g}" opacity=".95"/>`;
    case "planet": {
      const r = 34;
      return `${halo}<circle cx="${x}" cy="${y}" r="${r}" fill="${mix(g, art.sky[1], 0.35)}"/><path d="M${x - r} ${y}A${r} ${r} 0 0 0 ${x + r} ${y}Z" fill="${mix(g, art.sky[0], 0.55)}" opacity=".7"/>` +
        `<ellipse cx="${x}" cy="${y}" rx="58" ry="11" fill="none" stroke="${g}" stroke-width="3" opacity=".8" transform="rotate(-18 ${x} ${y})"/>`;
    }
    case "eclipse":
      return `${halo}<circle cx="${x}" cy="${y}" r="34" fill="${g}"/><circle cx="${x + 3}" cy="${y - 2}" r="31" fill="${art.sky[0]}"/>`;
    case "none":
      return "";
  }
}

/** Stars as zero-length round-capped strokes: a dot costs about ten bytes. */
function stars(rnd: () => number, n: number, maxY: number, colour: string): string {
  const small: string[] = [];
  const big: string[] = [];
  for (let i = 0; i < n; i++) {
    const x = rnd() * W;
    const y = rnd() * maxY;
    (rnd() < 0.85 ? small : big).push(`M${f(x)} ${f(y)}h0`);
  }
  return `<g stroke="${colour}" stroke-linecap="round" opacity=".85"><path d="${small.join("")}" stroke-width="1.2"/><path d="${big.join("")}" stroke-width="2.2"/></g>`;
}

/** A horizon silhouette filling from its line down to the bottom. */
function horizonLayer(kind: DemoArt["horizon"], rnd: () => number, base: number, amp: number, fill: string): string {
  const pts: [number, number][] = [];
  const bottom = `L${W} ${H}L0 ${H}Z`;
  switch (kind) {
    case "mountains": {
      let x = -10;
      pts.push([x, base]);
      while (x < W + 10) {
        x += 28 + rnd() * 40;
        pts.push([x - 14 - rnd() * 10, base - amp * (0.5 + rnd() * 0.9)]);
        pts.push([x, base - amp * rnd() * 0.35]);
      }
      return `<path d="M${pts.map(([a, b]) => `${f(a)} ${f(b)}`).join("L")}${bottom}" fill="${fill}"/>`;
    }
    case "hills":
    case "dunes": {
      let d = `M-10 ${f(base)}`;
      let x = -10;
      while (x < W + 10) {
        const step = 70 + rnd() * 70;
        const peak = base - amp * (0.3 + rnd() * 0.7);
        d += kind === "hills"
          ? `Q${f(x + step / 2)} ${f(peak * 2 - base)} ${f(x + step)} ${f(base)}`
          : `C${f(x + step * 0.3)} ${f(peak)} ${f(x + step * 0.5)} ${f(peak)} ${f(x + step)} ${f(base - amp * 0.1)}`;
        x += step;
      }
      return `<path d="${d}${bottom}" fill="${fill}"/>`;
    }
    case "forest": {
      let d = `M0 ${f(base)}`;
      let x = -6;
      while (x < W + 6) {
        const w = 10 + rnd() * 12;
        const h = amp * (0.5 + rnd() * 0.9);
        d += `L${f(x)} ${f(base)}L${f(x + w / 2)} ${f(base - h)}L${f(x + w)} ${f(base)}`;
        x += w * 0.7;
      }
      return `<path d="${d}${bottom}" fill="${fill}"/>`;
    }
    case "city":
    case "spires":
    case "castle": {
      let d = `M0 ${f(base)}`;
      let x = 0;
      while (x < W) {
        const w = kind === "city" ? 16 + rnd() * 26 : 14 + rnd() * 22;
        const h = amp * (0.3 + rnd() * 0.9);
        const top = base - h;
        if (kind === "city") d += `L${f(x)} ${f(top)}L${f(x + w)} ${f(top)}`;
        else if (kind === "spires") d += `L${f(x)} ${f(top)}L${f(x + w / 2)} ${f(top - 22 - rnd() * 24)}L${f(x + w)} ${f(top)}`;
        else d += `L${f(x)} ${f(top)}h4v-6h4v6h${f(w - 16)}v-6h4v6h4`;
        d += `L${f(x + w)} ${f(base - amp * 0.15)}`;
        x += w + (kind === "city" ? rnd() * 4 : 6 + rnd() * 14);
      }
      return `<path d="${d}${bottom}" fill="${fill}"/>`;
    }
    case "sea": {
      let d = `M0 ${f(base)}`;
      for (let x = 0; x <= W; x += 25) d += `Q${x + 12.5} ${f(base - 3 - rnd() * 3)} ${x + 25} ${f(base)}`;
      return `<path d="${d}${bottom}" fill="${fill}"/>`;
    }
    case "ruins": {
      let d = `M0 ${f(base)}`;
      let x = 8;
      while (x < W) {
        const w = 10 + rnd() * 8;
        const h = amp * (0.3 + rnd() * 0.9);
        d += `L${f(x)} ${f(base)}L${f(x)} ${f(base - h)}L${f(x + w * 0.6)} ${f(base - h - 6)}L${f(x + w)} ${f(base - h + 4)}L${f(x + w)} ${f(base)}`;
        x += w + 14 + rnd() * 30;
      }
      return `<path d="${d}${bottom}" fill="${fill}"/>`;
    }
    case "none":
      return "";
  }
}

function horizon(art: DemoArt, rnd: () => number): string {
  if (art.horizon === "none") return "";
  const far = mix(art.ground, art.sky[2], 0.55);
  const mid = mix(art.ground, art.sky[2], 0.28);
  let out = horizonLayer(art.horizon, rnd, 300, art.horizon === "sea" ? 0 : 70, far);
  if (art.horizon === "sea") {
    // Glints on the water below the light.
    let d = "";
    for (let i = 0; i < 14; i++) {
      const y = 310 + i * 6;
      const w = 10 + rnd() * 50;
      d += `M${f(150 - w / 2 + (rnd() - 0.5) * 60)} ${y}h${f(w)}`;
    }
    return `${out}<path d="${d}" stroke="${art.glow}" stroke-width="1.5" opacity=".35"/>`;
  }
  out += horizonLayer(art.horizon, rnd, 336, 60, mid);
  if (art.horizon === "city") out += windows(rnd, art.glow);
  const nearKind = art.horizon === "castle" || art.horizon === "spires" || art.horizon === "ruins" ? "hills" : art.horizon;
  out += horizonLayer(nearKind, rnd, 372, nearKind === "city" ? 40 : 30, art.ground);
  return out;
}

function windows(rnd: () => number, colour: string): string {
  let d = "";
  for (let i = 0; i < 26; i++) d += `M${f(rnd() * W)} ${f(300 + rnd() * 60)}h2v3h-2z`;
  return `<path d="${d}" fill="${colour}" opacity=".7"/>`;
}

function particles(art: DemoArt, rnd: () => number): string {
  switch (art.particles) {
    case "stars":
      return "";
    case "snow": {
      const sizes = [[] as string[], [] as string[], [] as string[]];
      for (let i = 0; i < 60; i++) sizes[i % 3]!.push(`M${f(rnd() * W)} ${f(rnd() * H)}h0`);
      return `<g stroke="#fff" stroke-linecap="round" opacity=".75">${sizes.map((d, i) => `<path d="${d.join("")}" stroke-width="${2 + i * 1.3}"/>`).join("")}</g>`;
    }
    case "rain": {
      let d = "";
      for (let i = 0; i < 60; i++) d += `M${f(rnd() * (W + 40))} ${f(rnd() * H)}l-5 16`;
      return `<path d="${d}" stroke="${mix(art.glow, "#ffffff", 0.5)}" stroke-width="1" opacity=".28"/>`;
    }
    case "embers": {
      const hot: string[] = [];
      const warm: string[] = [];
      for (let i = 0; i < 28; i++) (i % 3 ? warm : hot).push(`M${f(rnd() * W)} ${f(190 + rnd() * 210)}h0`);
      return `<g stroke-linecap="round" stroke-width="3"><path d="${warm.join("")}" stroke="#ffb347" opacity=".75"/><path d="${hot.join("")}" stroke="#ff6a2b" opacity=".9"/></g>`;
    }
    case "fireflies": {
      let glows = "";
      const cores: string[] = [];
      for (let i = 0; i < 16; i++) {
        const x = f(rnd() * W);
        const y = f(180 + rnd() * 200);
        glows += `<circle cx="${x}" cy="${y}" r="7"/>`;
        cores.push(`M${x} ${y}h0`);
      }
      return `<g fill="url(#ff)">${glows}</g><path d="${cores.join("")}" stroke="${art.accent}" stroke-width="2.6" stroke-linecap="round"/>`;
    }
    case "petals": {
      let out = "";
      for (let i = 0; i < 18; i++) {
        const x = f(rnd() * W);
        const y = f(rnd() * H);
        out += `<ellipse cx="${x}" cy="${y}" rx="3.5" ry="1.8" transform="rotate(${Math.round(rnd() * 180)} ${x} ${y})" fill="#ffc7dc" opacity=".8"/>`;
      }
      return out;
    }
    case "bubbles": {
      let out = "";
      for (let i = 0; i < 20; i++) {
        out += `<circle cx="${f(rnd() * W)}" cy="${f(rnd() * H)}" r="${f(1.5 + rnd() * 4)}"/>`;
      }
      return `<g fill="none" stroke="${art.accent}" stroke-width="1" opacity=".45">${out}</g>`;
    }
    case "none":
      return "";
  }
}

/** The SVG document of one demo character's avatar. */
export function avatarSvg(c: DemoCharacter): string {
  const art = c.art;
  const rnd = mulberry32(fnv1a(c.slug));
  const dark = mix(art.ground, "#000000", 0.35);
  const ink: Ink = { A: art.accent, D: dark, G: art.glow };
  const emblem = EMBLEMS[art.emblem](ink);
  const night = art.particles === "stars" || art.celestial === "moon" || art.celestial === "crescent" || art.celestial === "planet";
  const starCount = art.particles === "stars" ? 70 : night ? 28 : 0;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}">`,
    `<defs>`,
    `<linearGradient id="s" x2="0" y2="1"><stop offset="0" stop-color="${art.sky[0]}"/><stop offset=".55" stop-color="${art.sky[1]}"/><stop offset="1" stop-color="${art.sky[2]}"/></linearGradient>`,
    `<radialGradient id="h"><stop offset="0" stop-color="${art.glow}" stop-opacity=".5"/><stop offset="1" stop-color="${art.glow}" stop-opacity="0"/></radialGradient>`,
    `<radialGradient id="e"><stop offset="0" stop-color="${art.glow}" stop-opacity=".55"/><stop offset=".45" stop-color="${art.glow}" stop-opacity=".18"/><stop offset="1" stop-color="${art.glow}" stop-opacity="0"/></radialGradient>`,
    `<radialGradient id="ff"><stop offset="0" stop-color="${art.accent}" stop-opacity=".6"/><stop offset="1" stop-color="${art.accent}" stop-opacity="0"/></radialGradient>`,
    `<radialGradient id="v" cx=".5" cy=".45" r=".75"><stop offset=".55" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity=".55"/></radialGradient>`,
    `<filter id="sh" x="-20%" y="-20%" width="140%" height="140%"><feDropShadow dx="0" dy="4" stdDeviation="4" flood-color="#000" flood-opacity=".45"/></filter>`,
    `<filter id="g"><feTurbulence type="fractalNoise" baseFrequency=".85" numOctaves="2" stitchTiles="stitch"/><feColorMatrix values="0 0 0 0 1 0 0 0 0 1 0 0 0 0 1 0 0 0 .07 0"/></filter>`,
    `</defs>`,
    `<rect width="${W}" height="${H}" fill="url(#s)"/>`,
    starCount ? stars(rnd, starCount, 260, mix(art.glow, "#ffffff", 0.6)) : "",
    celestial(art, rnd),
    horizon(art, rnd),
    `<circle cx="${EX}" cy="${EY}" r="118" fill="url(#e)"/>`,
    `<g filter="url(#sh)" transform="translate(${EX - 50 * ES} ${EY - 50 * ES}) scale(${ES})">${emblem}</g>`,
    particles(art, rnd),
    `<rect width="${W}" height="${H}" fill="url(#v)"/>`,
    `<rect width="${W}" height="${H}" filter="url(#g)" opacity=".9"/>`,
    `</svg>`,
  ].join("");
}

/** The avatar as a PNG link preview: the same picture at 300×400 without the grain layer, as a palette PNG (bytes). */
async function previewPng(svg: string): Promise<Buffer> {
  const grainless = svg.replace(`<rect width="${W}" height="${H}" filter="url(#g)" opacity=".9"/>`, "");
  return sharp(Buffer.from(grainless)).png({ compressionLevel: 9, palette: true, quality: 95, dither: 0.5 }).toBuffer();
}

/** A contact sheet page (card-sized thumbnails with names) for looking at the set. */
function contactSheet(dir: string): string {
  const cells = DEMO_CHARACTERS.map(
    (c) =>
      `<figure><img src="file://${join(dir, `${c.slug}.svg`)}" alt=""><figcaption>${c.name}${c.isNsfw ? " · NSFW" : ""}</figcaption></figure>`,
  ).join("\n");
  return `<!doctype html><meta charset="utf-8"><style>
body{margin:0;padding:12px;background:#0f0f14;font:11px system-ui;color:#ccc;display:grid;grid-template-columns:repeat(9,minmax(0,1fr));gap:10px}
figure{margin:0}img{width:100%;aspect-ratio:3/4;object-fit:cover;border-radius:10px;display:block}
figcaption{margin-top:4px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}</style>
${cells}`;
}

const { values } = parseArgs({ options: { sheet: { type: "string" } } });
const outDir = join(ROOT, "web/public/avatars/demo");
mkdirSync(outDir, { recursive: true });
let largest = 0;
let largestPng = 0;
for (const c of DEMO_CHARACTERS) {
  const svg = avatarSvg(c);
  largest = Math.max(largest, svg.length);
  writeFileSync(join(outDir, `${c.slug}.svg`), `${svg}\n`);
  const png = await previewPng(svg);
  largestPng = Math.max(largestPng, png.length);
  writeFileSync(join(outDir, `${c.slug}.png`), png);
}
console.log(`Wrote ${DEMO_CHARACTERS.length} avatars to ${outDir} (largest ${largest} bytes; PNG previews up to ${largestPng} bytes).`);
if (values.sheet) {
  writeFileSync(values.sheet, contactSheet(outDir));
  console.log(`Contact sheet: ${values.sheet}`);
}
