/**
 * What a prompt asks the offline painter (ai/images/offline-painter.ts) to
 * paint: its words read into a Scene (time of day, ground, features, an
 * accent colour, portrait or not), and the prompt's hash that seeds every
 * random choice of the painting.
 */
import { fnv1a } from "../../../schema/seeded-random.ts";
import { hsl, type Rgb } from "./canvas.ts";

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

