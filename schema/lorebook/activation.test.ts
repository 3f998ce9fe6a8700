/**
 * The lorebook activation engine against SillyTavern's World Info behaviour
 * (SillyTavern/SillyTavern public/scripts/world-info.js; docs.sillytavern.app
 * "World Info") and Card V3 decorators (kwaroran/character-card-spec-v3
 * SPEC_V3.md). One case per documented rule, run by one loop; a case is a
 * series of turns on one branch, each turn's timers passed to the next.
 */
import { describe, expect, it } from "vitest";
import { requiredLiteral } from "./matching.ts";
import { activate, parseDecorators, seededRandom, type ActivatedEntry, type ActivationInput, type LoreEntry, type Lorebook, type LorebookSettings, type TimedState } from "./activation.ts";

/** A turn: the chat newest first ("Name: text" gives a speaker), what fires ("entryId:reason", in prompt order). */
interface Turn extends Partial<Omit<ActivationInput, "messages" | "countTokens" | "seed">> {
  say: string[];
  seed?: string;
  expect: string[];
  detail?: Partial<ActivatedEntry>[];
}

interface Case {
  rule: string;
  books: Lorebook[];
  turns: Turn[];
}

function entry(id: string, fields: Partial<LoreEntry> = {}): LoreEntry {
  return { id, keys: [], content: `${id} lore`, ...fields };
}

function book(entries: LoreEntry[], settings: LorebookSettings = {}, id = "b"): Lorebook {
  return { id, entries, settings };
}

const one = (fields: Partial<LoreEntry>, settings?: LorebookSettings) => [book([entry("e", fields)], settings)];
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

const cases: Case[] = [
  // What the prompt inspector tells (DESIGN.md turn 4: "names each activated entry and why")
  {
    rule: "an entry fired by a key is named by its comment and book, with the key that matched",
    books: [{ id: "w", name: "Saltmere", entries: [entry("e", { comment: "The harbor", keys: ["dock", "harbor"] })] }],
    turns: [{ say: ["At the HARBOR."], expect: ["e:key"], detail: [{ lorebookName: "Saltmere", title: "The harbor", key: "harbor", secondaryKey: null, decorator: null }] }],
  },
  { rule: "an entry without a comment is titled by its first key", books: one({ keys: ["", "dragon", "wyrm"] }), turns: [{ say: ["a wyrm"], expect: ["e:key"], detail: [{ title: "dragon", key: "wyrm", lorebookName: "" }] }] },
  { rule: "a regex key is the key that matched", books: one({ keys: ["/drag(on|oon)s?/i"] }), turns: [{ say: ["Dragoons!"], expect: ["e:regex"], detail: [{ key: "/drag(on|oon)s?/i" }] }] },
  {
    rule: "a secondary AND_ANY match names both keys; NOT_ANY names only the primary",
    books: [book([entry("a", { keys: ["storm"], secondaryKeys: ["rain", "sea"], order: 1 }), entry("b", { keys: ["storm"], secondaryKeys: ["snow"], selectiveLogic: "NOT_ANY", order: 2 })])],
    turns: [{ say: ["storm at sea"], expect: ["a:secondary", "b:secondary"], detail: [{ key: "storm", secondaryKey: "sea" }, { key: "storm", secondaryKey: null }] }],
  },
  { rule: "a constant entry names no key", books: one({ constant: true, keys: ["x"] }), turns: [{ say: ["x"], expect: ["e:constant"], detail: [{ key: null, decorator: null }] }] },
  {
    rule: "recursion names the key found in another entry's content",
    books: [book([entry("a", { keys: ["tower"], content: "The tower holds the LAMP.", order: 2 }), entry("b", { keys: ["lamp"], order: 1 })], { recursive: true })],
    turns: [{ say: ["the tower"], expect: ["b:recursion", "a:key"], detail: [{ key: "lamp" }, { key: "tower" }] }],
  },
  // Keys and matching
  { rule: "a primary key anywhere in the scanned messages fires the entry, case-insensitive by default", books: one({ keys: ["dragon"] }), turns: [{ say: ["A DRAGON lands."], expect: ["e:key"] }] },
  { rule: "no key matched: nothing fires", books: one({ keys: ["dragon"] }), turns: [{ say: ["A wyvern lands."], expect: [] }] },
  { rule: "any one of several primary keys is enough", books: one({ keys: ["wyvern", "dragon"] }), turns: [{ say: ["a dragon"], expect: ["e:key"] }] },
  { rule: "caseSensitive: the key's case must match", books: one({ keys: ["Dragon"], caseSensitive: true }), turns: [{ say: ["a dragon"], expect: [] }, { say: ["a Dragon"], expect: ["e:key"] }] },
  { rule: "caseSensitive unset follows the book's setting", books: one({ keys: ["Dragon"] }, { caseSensitive: true }), turns: [{ say: ["a dragon"], expect: [] }] },
  { rule: "matchWholeWords: a key inside a longer word does not fire", books: one({ keys: ["cat"], matchWholeWords: true }), turns: [{ say: ["concatenate"], expect: [] }, { say: ["the cat."], expect: ["e:key"] }] },
  { rule: "without matchWholeWords a key matches inside words", books: one({ keys: ["cat"] }), turns: [{ say: ["concatenate"], expect: ["e:key"] }] },
  { rule: "matchWholeWords with a key of several words is a plain substring match", books: one({ keys: ["ice cream"], matchWholeWords: true }), turns: [{ say: ["nice creamy"], expect: ["e:key"] }] },
  { rule: "matchWholeWords in a script without spaces: every non-ASCII letter is a boundary, so the key matches inside words", books: one({ keys: ["猫"], matchWholeWords: true }), turns: [{ say: ["我的猫咪"], expect: ["e:key"] }] },
  // The compiled matchers (matching.ts: one automaton per book, a literal each regex needs) find what a plain search finds
  {
    rule: "a key inside another key and keys sharing a start are all found",
    books: [book([entry("a", { keys: ["undersea"], order: 3 }), entry("b", { keys: ["sea"], order: 2 }), entry("c", { keys: ["seal"], order: 1 }), entry("d", { keys: ["sear"], order: 0 })])],
    turns: [{ say: ["An undersea seal."], expect: ["c:key", "b:key", "a:key"] }],
  },
  { rule: "whole words: a later occurrence between boundaries counts", books: one({ keys: ["art"], matchWholeWords: true }), turns: [{ say: ["A party of art lovers."], expect: ["e:key"] }] },
  { rule: "whole words: only inside other words, no match", books: one({ keys: ["art"], matchWholeWords: true }), turns: [{ say: ["A party, a start, a cart."], expect: [] }] },
  { rule: "a case-sensitive key and a case-insensitive one in the same book", books: [book([entry("a", { keys: ["Rose"], caseSensitive: true, order: 2 }), entry("b", { keys: ["ROSE"], order: 1 })])], turns: [{ say: ["a rose"], expect: ["b:key"] }, { say: ["Rose said"], expect: ["b:key", "a:key"] }] },
  { rule: "a regex with an optional letter matches without it", books: one({ keys: ["/colou?rs?/"] }), turns: [{ say: ["the colors"], expect: ["e:regex"] }] },
  { rule: "a regex with an alternation matches either side", books: one({ keys: ["/cat|dog/"] }), turns: [{ say: ["a dog"], expect: ["e:regex"] }] },
  { rule: "a case-sensitive regex needs its literal in that case", books: one({ keys: ["/Storm(s)?/"] }), turns: [{ say: ["a storm"], expect: [] }, { say: ["a Storm"], expect: ["e:regex"] }] },
  { rule: "an i regex finds its literal in any case", books: one({ keys: ["/\\bstorm\\b/i"] }), turns: [{ say: ["STORM!"], expect: ["e:regex"] }] },
  { rule: "a regex key is matched across messages as one text", books: one({ keys: ["/calm[\\s\\S]*storm/"], scanDepth: 2 }), turns: [{ say: ["a storm", "so calm"], expect: [] }, { say: ["so calm", "a storm"], expect: ["e:regex"] }] },
  { rule: "a key with a macro is expanded before it is matched", books: one({ keys: ["{{user}}'s sword"] }), turns: [{ say: ["Mira's sword"], substitute: (t: string) => t.replace("{{user}}", "Mira"), expect: ["e:key"] }] },
  { rule: "a /regex/flags key is a regular expression", books: one({ keys: ["/drag(on|oness)\\b/i"] }), turns: [{ say: ["the DRAGONESS"], expect: ["e:regex"] }] },
  { rule: "a regex key ignores case sensitivity: only its own flags count", books: one({ keys: ["/dragon/"], caseSensitive: false }), turns: [{ say: ["DRAGON"], expect: [] }] },
  { rule: "a regex key ignores whole words", books: one({ keys: ["/cat/"], matchWholeWords: true }), turns: [{ say: ["concatenate"], expect: ["e:regex"] }] },
  { rule: "an unescaped / inside the pattern makes the key plain text", books: one({ keys: ["/a/b/"] }), turns: [{ say: ["path /a/b/ here"], expect: ["e:key"] }, { say: ["a b"], expect: [] }] },
  { rule: "a pattern that does not compile is plain text", books: one({ keys: ["/[/"] }), turns: [{ say: ["odd /[/ text"], expect: ["e:key"] }] },
  { rule: "the speaker's name is scanned (\"Name: text\")", books: one({ keys: ["aria"] }), turns: [{ say: ["Aria: hello"], expect: ["e:key"] }] },
  { rule: "includeNames false: the speaker's name is not scanned", books: one({ keys: ["aria"] }), turns: [{ say: ["Aria: hello"], includeNames: false, expect: [] }] },
  { rule: "the scan context (an author's note) is scanned with the chat", books: one({ keys: ["eclipse"] }), turns: [{ say: ["hi"], scanContext: ["An eclipse looms."], expect: ["e:key"] }] },
  { rule: "keys are expanded by the macro function ({{char}})", books: one({ keys: ["{{char}}'s sword"] }), turns: [{ say: ["Aria's sword glows"], substitute: (t) => t.replace("{{char}}", "Aria"), expect: ["e:key"] }] },

  // Secondary keys
  { rule: "AND_ANY: a primary key and any secondary key", books: one({ keys: ["sword"], secondaryKeys: ["fire", "ice"], selectiveLogic: "AND_ANY" }), turns: [{ say: ["an ice sword"], expect: ["e:secondary"] }, { say: ["a sword"], expect: [] }] },
  { rule: "selectiveLogic unset is AND_ANY", books: one({ keys: ["sword"], secondaryKeys: ["fire"] }), turns: [{ say: ["a sword"], expect: [] }, { say: ["a fire sword"], expect: ["e:secondary"] }] },
  { rule: "NOT_ALL: a primary key and not every secondary key", books: one({ keys: ["sword"], secondaryKeys: ["fire", "ice"], selectiveLogic: "NOT_ALL" }), turns: [{ say: ["a fire sword"], expect: ["e:secondary"] }, { say: ["fire and ice sword"], expect: [] }] },
  { rule: "NOT_ANY: a primary key and no secondary key", books: one({ keys: ["sword"], secondaryKeys: ["fire", "ice"], selectiveLogic: "NOT_ANY" }), turns: [{ say: ["a sword"], expect: ["e:secondary"] }, { say: ["an ice sword"], expect: [] }] },
  { rule: "AND_ALL: a primary key and every secondary key", books: one({ keys: ["sword"], secondaryKeys: ["fire", "ice"], selectiveLogic: "AND_ALL" }), turns: [{ say: ["a fire sword"], expect: [] }, { say: ["fire and ice sword"], expect: ["e:secondary"] }] },
  { rule: "secondary keys alone never fire an entry", books: one({ keys: ["sword"], secondaryKeys: ["fire"] }), turns: [{ say: ["fire"], expect: [] }] },
  { rule: "selective false: secondary keys are not checked", books: one({ keys: ["sword"], secondaryKeys: ["fire"], selective: false }), turns: [{ say: ["a sword"], expect: ["e:key"] }] },
  { rule: "secondary keys can be regex keys", books: one({ keys: ["sword"], secondaryKeys: ["/fl[a-z]+e/"] }), turns: [{ say: ["a flame sword"], expect: ["e:secondary"] }] },

  // Constant, disabled, probability
  { rule: "constant: in the prompt with no key said", books: one({ constant: true }), turns: [{ say: ["hello"], expect: ["e:constant"] }] },
  { rule: "disable: never fires, constant or not", books: one({ constant: true, keys: ["hello"], disable: true }), turns: [{ say: ["hello"], expect: [] }] },
  { rule: "an entry with no keys and not constant never fires", books: one({ keys: [] }), turns: [{ say: ["anything"], expect: [] }] },
  { rule: "probability 0 never fires", books: one({ keys: ["dragon"], probability: 0 }), turns: [{ say: ["dragon"], seed: "m1", expect: [] }, { say: ["dragon"], seed: "m2", expect: [] }] },
  { rule: "probability 100 always fires", books: one({ keys: ["dragon"], probability: 100 }), turns: [{ say: ["dragon"], seed: "m1", expect: ["e:key"] }] },
  { rule: "useProbability false: probability is not rolled", books: one({ keys: ["dragon"], probability: 0, useProbability: false }), turns: [{ say: ["dragon"], expect: ["e:key"] }] },
  { rule: "probability applies to constant entries too", books: one({ constant: true, probability: 0 }), turns: [{ say: ["hi"], expect: [] }] },

  // Scan depth
  { rule: "the book's scanDepth: only that many newest messages are scanned", books: one({ keys: ["dragon"] }, { scanDepth: 1 }), turns: [{ say: ["hello", "a dragon"], expect: [] }] },
  { rule: "scanDepth defaults to 2 messages", books: one({ keys: ["dragon"] }), turns: [{ say: ["a", "b dragon", "c"], expect: ["e:key"] }, { say: ["a", "b", "c dragon"], expect: [] }] },
  { rule: "an entry's scanDepth overrides the book's", books: one({ keys: ["dragon"], scanDepth: 3 }, { scanDepth: 1 }), turns: [{ say: ["a", "b", "c dragon"], expect: ["e:key"] }] },
  { rule: "scanDepth 0: no key fires, constants still do", books: [book([entry("k", { keys: ["hi"] }), entry("c", { constant: true })], { scanDepth: 0 })], turns: [{ say: ["hi"], expect: ["c:constant"] }] },

  // Position, depth, role, order
  {
    rule: "position at_depth carries depth (default 4) and role (default system); before_char and after_char carry neither",
    books: [book([entry("a", { constant: true, position: "at_depth", order: 1 }), entry("b", { constant: true, position: "after_char", order: 2 }), entry("c", { constant: true, position: "at_depth", depth: 0, role: "user", order: 3 })])],
    turns: [
      {
        say: ["hi"],
        expect: ["a:constant", "b:constant", "c:constant"],
        detail: [
          { entryId: "a", position: "at_depth", depth: 4, role: "system" },
          { entryId: "b", position: "after_char", depth: null, role: null },
          { entryId: "c", position: "at_depth", depth: 0, role: "user" },
        ],
      },
    ],
  },
  { rule: "position unset is before_char", books: one({ constant: true }), turns: [{ say: ["hi"], expect: ["e:constant"], detail: [{ position: "before_char", depth: null }] }] },
  {
    rule: "entries come out lowest order first (higher order nearer the chat)",
    books: [book([entry("hi", { constant: true, order: 300 }), entry("lo", { constant: true, order: 5 }), entry("mid", { constant: true })])],
    turns: [{ say: ["x"], expect: ["lo:constant", "mid:constant", "hi:constant"] }],
  },
  {
    rule: "entries of equal order come out in reverse scan order (SillyTavern puts each in front)",
    books: [book([entry("first", { constant: true }), entry("second", { constant: true })])],
    turns: [{ say: ["x"], expect: ["second:constant", "first:constant"] }],
  },
  {
    rule: "entries of every book fire, each named with its book",
    books: [book([entry("a", { keys: ["moon"] })], {}, "chat"), book([entry("b", { keys: ["moon"], order: 1 })], {}, "card")],
    turns: [{ say: ["moon"], expect: ["b:key", "a:key"], detail: [{ lorebookId: "card" }, { lorebookId: "chat" }] }],
  },

  // Token budget
  {
    rule: "token budget: entries are taken by order (highest first) until the next would reach the budget; the rest are dropped",
    books: [book([entry("a", { constant: true, order: 300, content: "one two three four" }), entry("b", { constant: true, order: 200, content: "five six seven eight" }), entry("c", { constant: true, order: 100, content: "nine" })])],
    turns: [{ say: ["x"], tokenBudget: 8, expect: ["a:constant"] }],
  },
  {
    rule: "a book's tokenBudget caps the caller's",
    books: [book([entry("a", { constant: true, order: 300, content: "one two" }), entry("b", { constant: true, order: 200, content: "three four" })], { tokenBudget: 4 })],
    turns: [{ say: ["x"], tokenBudget: 100, expect: ["a:constant"] }],
  },
  {
    rule: "a budget overflow stops recursion",
    books: [book([entry("a", { keys: ["gate"], content: "the castle" }), entry("b", { keys: ["castle"], content: "a b c d e f g h" })], { recursive: true, tokenBudget: 3 })],
    turns: [{ say: ["gate"], expect: ["a:key"] }],
  },

  // Recursion
  { rule: "recursion off: an entry's content triggers nothing", books: [book([entry("a", { keys: ["gate"], content: "the castle" }), entry("b", { keys: ["castle"] })])], turns: [{ say: ["gate"], expect: ["a:key"] }] },
  { rule: "recursion on: an activated entry's content triggers others", books: [book([entry("a", { keys: ["gate"], content: "the castle", order: 1 }), entry("b", { keys: ["castle"], order: 2 })], { recursive: true })], turns: [{ say: ["gate"], expect: ["a:key", "b:recursion"] }] },
  { rule: "preventRecursion: its content triggers nothing", books: [book([entry("a", { keys: ["gate"], content: "the castle", preventRecursion: true }), entry("b", { keys: ["castle"] })], { recursive: true })], turns: [{ say: ["gate"], expect: ["a:key"] }] },
  {
    rule: "excludeRecursion: not triggered by other entries, still by the chat",
    books: [book([entry("a", { keys: ["gate"], content: "the castle" }), entry("b", { keys: ["castle"], excludeRecursion: true })], { recursive: true })],
    turns: [{ say: ["gate"], expect: ["a:key"] }, { say: ["castle"], expect: ["b:key"] }],
  },
  {
    rule: "maxRecursionSteps: at most that many scan passes (the first counts)",
    books: [book([entry("a", { keys: ["gate"], content: "castle", order: 1 }), entry("b", { keys: ["castle"], content: "tower", order: 2 }), entry("c", { keys: ["tower"], order: 3 })], { recursive: true, maxRecursionSteps: 2 })],
    turns: [{ say: ["gate"], expect: ["a:key", "b:recursion"] }],
  },
  {
    rule: "maxRecursionSteps 0: recursion runs until nothing new fires",
    books: [book([entry("a", { keys: ["gate"], content: "castle", order: 1 }), entry("b", { keys: ["castle"], content: "tower", order: 2 }), entry("c", { keys: ["tower"], order: 3 })], { recursive: true })],
    turns: [{ say: ["gate"], expect: ["a:key", "b:recursion", "c:recursion"] }],
  },
  {
    rule: "delayUntilRecursion: skipped on the first pass, fires on a recursion pass (on the chat's text too)",
    books: [book([entry("d", { keys: ["dragon"], delayUntilRecursion: true, order: 2 }), entry("a", { constant: true, order: 1 })], { recursive: true })],
    turns: [{ say: ["dragon"], expect: ["a:constant", "d:recursion"] }],
  },
  {
    rule: "delayUntilRecursion with recursion off and one level: there is no recursion pass, so it never fires",
    books: [book([entry("d", { keys: ["dragon"], delayUntilRecursion: true }), entry("a", { constant: true })])],
    turns: [{ say: ["dragon"], expect: ["a:constant"] }],
  },
  {
    rule: "delayUntilRecursion levels: a higher level waits for a later pass",
    books: [book([entry("a", { constant: true, order: 1 }), entry("l2", { keys: ["dragon"], delayUntilRecursion: 2, order: 3 }), entry("l1", { keys: ["dragon"], delayUntilRecursion: 1, order: 2 })], { recursive: true, maxRecursionSteps: 2 })],
    turns: [{ say: ["dragon"], expect: ["a:constant", "l1:recursion"] }],
  },

  // Timed effects (counted in the branch's messages)
  {
    rule: "sticky N: stays in the prompt N messages after it fired, then stops",
    books: one({ keys: ["storm"], sticky: 2 }),
    turns: [{ say: ["storm"], expect: ["e:key"] }, { say: ["calm", "storm"], expect: ["e:sticky"] }, { say: ["calm", "calm", "storm"], expect: [] }],
  },
  {
    rule: "cooldown N: cannot fire for N messages after it fired",
    books: one({ keys: ["storm"], cooldown: 2 }),
    turns: [{ say: ["storm"], expect: ["e:key"] }, { say: ["storm", "storm"], expect: [] }, { say: ["storm", "storm", "storm"], expect: ["e:key"] }],
  },
  {
    rule: "sticky then cooldown: the cooldown starts when the sticky ends",
    books: one({ keys: ["storm"], sticky: 1, cooldown: 2 }),
    turns: [
      { say: ["storm"], expect: ["e:key"] },
      { say: ["storm", "storm"], expect: [] },
      { say: ["storm", "storm", "storm"], expect: [] },
      { say: ["storm", "storm", "storm", "storm"], expect: ["e:key"] },
    ],
  },
  { rule: "delay N: cannot fire before the chat has N messages", books: one({ keys: ["storm"], delay: 3 }), turns: [{ say: ["storm", "x"], expect: [] }, { say: ["storm", "x", "y"], expect: ["e:key"] }] },
  {
    rule: "a rewind or regenerate to before a sticky began undoes it",
    books: one({ keys: ["storm"], sticky: 5 }),
    turns: [{ say: ["storm"], chatLength: 3, expect: ["e:key"] }, { say: ["calm"], chatLength: 3, expect: [] }],
  },
  { rule: "a sticky entry skips its probability roll", books: one({ keys: ["storm"], sticky: 3, probability: 100 }), turns: [{ say: ["storm"], expect: ["e:key"] }, { say: ["x", "y"], expect: ["e:sticky"] }] },

  // Inclusion groups
  {
    rule: "inclusion group: one entry of the group fires, chosen by groupWeight (weight 0 never wins)",
    books: [book([entry("a", { keys: ["tavern"], group: "barkeep", groupWeight: 0 }), entry("b", { keys: ["tavern"], group: "barkeep", groupWeight: 100, order: 1 }), entry("c", { keys: ["tavern"], order: 2 })])],
    turns: [{ say: ["tavern"], seed: "m1", expect: ["b:key", "c:key"] }, { say: ["tavern"], seed: "m2", expect: ["b:key", "c:key"] }],
  },
  {
    rule: "groupOverride: the override entry with the highest order wins its group",
    books: [book([entry("a", { keys: ["tavern"], group: "g", groupOverride: true, order: 10 }), entry("b", { keys: ["tavern"], group: "g", groupOverride: true, order: 20 }), entry("c", { keys: ["tavern"], group: "g", order: 90 })])],
    turns: [{ say: ["tavern"], expect: ["b:key"] }],
  },
  {
    rule: "group scoring: only the entries with the most matching keys stay",
    books: [book([entry("a", { keys: ["tavern"], group: "g", groupOverride: true }), entry("b", { keys: ["tavern", "ale"], group: "g" })], { useGroupScoring: true })],
    turns: [{ say: ["tavern ale"], expect: ["b:key"] }],
  },
  {
    rule: "an entry in several groups (comma-separated) competes in each",
    books: [book([entry("a", { keys: ["x"], group: "g1, g2", groupOverride: true }), entry("b", { keys: ["x"], group: "g2" }), entry("c", { keys: ["x"], group: "g1" })])],
    turns: [{ say: ["x"], expect: ["a:key"] }],
  },
  {
    rule: "a group that already fired in an earlier pass takes no more entries",
    books: [book([entry("a", { keys: ["gate"], group: "g", content: "castle" }), entry("b", { keys: ["castle"], group: "g" })], { recursive: true })],
    turns: [{ say: ["gate"], expect: ["a:key"] }],
  },
  {
    rule: "a sticky entry wins its group",
    books: [book([entry("a", { keys: ["storm"], group: "g", sticky: 3, groupWeight: 100 }), entry("b", { keys: ["rain"], group: "g", groupOverride: true })])],
    turns: [{ say: ["storm"], expect: ["a:key"] }, { say: ["rain", "x"], expect: ["a:sticky"] }],
  },

  // Card V3 decorators
  { rule: "@@activate: fires in any case", books: one({ content: "@@activate\nAlways here" }), turns: [{ say: ["x"], expect: ["e:constant"], detail: [{ content: "Always here", decorator: "@@activate", key: null }] }] },
  { rule: "@@dont_activate: never fires on keys", books: one({ keys: ["x"], content: "@@dont_activate\nhidden" }), turns: [{ say: ["x"], expect: [] }] },
  { rule: "@@activate wins over @@dont_activate", books: one({ content: "@@dont_activate\n@@activate\nhere" }), turns: [{ say: ["x"], expect: ["e:constant"] }] },
  { rule: "@@depth and @@role: inserted at that depth with that role", books: one({ keys: ["x"], content: "@@depth 2\n@@role assistant\nlore" }), turns: [{ say: ["x"], expect: ["e:key"], detail: [{ position: "at_depth", depth: 2, role: "assistant", content: "lore" }] }] },
  { rule: "@@position wins over @@depth (after_desc is after the character)", books: one({ constant: true, content: "@@depth 2\n@@position after_desc\nlore" }), turns: [{ say: ["x"], expect: ["e:constant"], detail: [{ position: "after_char", depth: null }] }] },
  { rule: "@@scan_depth: only that many newest messages", books: one({ keys: ["dragon"], content: "@@scan_depth 1\nlore" }), turns: [{ say: ["x", "dragon"], expect: [] }, { say: ["dragon", "x"], expect: ["e:key"] }] },
  {
    rule: "@@activate_only_after N: not before the characters have sent N messages",
    books: one({ keys: ["x"], content: "@@activate_only_after 2\nlore" }),
    turns: [{ say: ["x"], characterMessageCount: 1, expect: [] }, { say: ["x"], characterMessageCount: 2, expect: ["e:key"] }],
  },
  {
    rule: "@@activate_only_every N: only when the characters' message count is a multiple of N",
    books: one({ keys: ["x"], content: "@@activate_only_every 2\nlore" }),
    turns: [{ say: ["x"], characterMessageCount: 3, expect: [] }, { say: ["x"], characterMessageCount: 4, expect: ["e:key"] }],
  },
  { rule: "@@is_greeting N: only in a chat opened with that greeting", books: one({ constant: true, content: "@@is_greeting 1\nlore" }), turns: [{ say: ["x"], greetingIndex: 0, expect: [] }, { say: ["x"], greetingIndex: 1, expect: ["e:constant"] }] },
  { rule: "@@additional_keys: one of them must occur too", books: one({ keys: ["sword"], content: "@@additional_keys fire, ice\nlore" }), turns: [{ say: ["a sword"], expect: [] }, { say: ["an ice sword"], expect: ["e:key"] }] },
  { rule: "@@exclude_keys: none of them may occur", books: one({ keys: ["sword"], content: "@@exclude_keys wooden\nlore" }), turns: [{ say: ["a wooden sword"], expect: [] }, { say: ["a sword"], expect: ["e:key"] }] },
  {
    rule: "@@keep_activate_after_match: once it has fired it stays on",
    books: one({ keys: ["storm"], content: "@@keep_activate_after_match\nlore" }),
    turns: [{ say: ["calm"], expect: [] }, { say: ["storm", "calm"], expect: ["e:key"] }, { say: ["calm", "x", "y"], expect: ["e:sticky"] }],
  },
  { rule: "@@dont_activate_after_match: fires only once per branch", books: one({ keys: ["storm"], content: "@@dont_activate_after_match\nlore" }), turns: [{ say: ["storm"], expect: ["e:key"] }, { say: ["storm", "storm"], expect: [] }] },
  { rule: "@@match_full_word: whole words only", books: one({ keys: ["cat"], content: "@@match_full_word\nlore" }), turns: [{ say: ["concatenate"], expect: [] }, { say: ["a cat"], expect: ["e:key"] }] },
  { rule: "@@probability: the roll's percent", books: one({ keys: ["cat"], content: "@@probability 0\nlore" }), turns: [{ say: ["a cat"], expect: [] }] },
  {
    rule: "@@@ fallback: read only when the decorator above it is unknown",
    books: [book([entry("a", { constant: true, order: 1, content: "@@risu_only 4\n@@@depth 3\nlore" }), entry("b", { constant: true, order: 2, content: "@@depth 2\n@@@depth 5\nlore" })])],
    turns: [{ say: ["x"], expect: ["a:constant", "b:constant"], detail: [{ depth: 3 }, { depth: 2 }] }],
  },
];

describe("lorebook activation follows SillyTavern's World Info", () => {
  for (const c of cases) {
    it(c.rule, () => {
      let timedState: TimedState | null = null;
      c.turns.forEach((turn, i) => {
        const { say, expect: expected, detail, seed, ...rest } = turn;
        const messages = say.map((line) => {
          const named = /^([A-Z][a-z]+): (.*)$/.exec(line);
          return named ? { name: named[1], text: named[2]! } : { text: line };
        });
        const result = activate(c.books, { messages, countTokens: words, seed: seed ?? `m${i}`, timedState, ...rest });
        expect(result.entries.map((e) => `${e.entryId}:${e.reason}`), `turn ${i + 1}`).toEqual(expected);
        if (detail) expect(result.entries, `turn ${i + 1}`).toMatchObject(detail);
        timedState = result.timedState;
      });
    });
  }
});

describe("seeded choices", () => {
  const coin = one({ keys: ["coin"], probability: 50 });
  const fired = (seed: string) => activate(coin, { messages: [{ text: "coin" }], countTokens: words, seed }).entries.length;

  it("regenerating with the same message id reproduces every roll", () => {
    const seeds = Array.from({ length: 50 }, (_, i) => `msg-${i}`);
    expect(seeds.map(fired)).toEqual(seeds.map(fired));
  });

  it("probability 50 fires about half the time over many message ids", () => {
    const count = Array.from({ length: 400 }, (_, i) => fired(`msg-${i}`)).reduce((a, b) => a + b, 0);
    expect(count).toBeGreaterThan(150);
    expect(count).toBeLessThan(250);
  });

  it("group weights share the wins in proportion", () => {
    const books = [book([entry("a", { keys: ["x"], group: "g", groupWeight: 25 }), entry("b", { keys: ["x"], group: "g", groupWeight: 75 })])];
    const wins = Array.from({ length: 400 }, (_, i) => activate(books, { messages: [{ text: "x" }], countTokens: words, seed: `s${i}` }).entries[0]!.entryId);
    const a = wins.filter((w) => w === "a").length;
    expect(a).toBeGreaterThan(60);
    expect(a).toBeLessThan(140);
  });

  it("seededRandom is in [0, 1) and depends on both seed and label", () => {
    const values = [seededRandom("m1", "a"), seededRandom("m1", "b"), seededRandom("m2", "a")];
    for (const v of values) expect(v >= 0 && v < 1).toBe(true);
    expect(new Set(values).size).toBe(3);
  });
});

describe("parseDecorators", () => {
  it("takes leading @@ lines out of the content and keeps the rest as written", () => {
    expect(parseDecorators("@@depth 3\n@@additional_keys a, b\nText\n@@not a decorator here")).toEqual({
      decorators: [
        { name: "depth", values: ["3"] },
        { name: "additional_keys", values: ["a", "b"] },
      ],
      content: "Text\n@@not a decorator here",
    });
  });

  it("content without decorators is unchanged", () => {
    expect(parseDecorators("Plain @@ text")).toEqual({ decorators: [], content: "Plain @@ text" });
  });
});

describe("requiredLiteral (the text a regex key cannot match without)", () => {
  it("is the longest run of plain characters no quantifier makes optional", () => {
    const of = (source: string, flags = "") => requiredLiteral(new RegExp(source, flags));
    expect(of("\\bdragons?\\b", "i")).toBe("dragon");
    expect(of("colou?r")).toBe("colo");
    expect(of("storm(y)?s")).toBe("storm");
    expect(of("Sea\\.Wolf+")).toBe("Sea.Wolf");
    expect(of("[abc]xyz{2}")).toBe(null);
    expect(of("STORM", "i")).toBe("storm");
  });

  it("is none when it cannot be told safely: alternation, unicode, escapes with a payload, too short", () => {
    const of = (source: string, flags = "") => requiredLiteral(new RegExp(source, flags));
    expect(of("cat|dog")).toBe(null);
    expect(of("dragon", "u")).toBe(null);
    expect(of("\\x41bcdef")).toBe(null);
    expect(of("(a)\\1bcd")).toBe(null);
    expect(of("ab")).toBe(null);
    expect(of("σκύλος", "i")).toBe(null);
  });
});

describe("the state kept between replies", () => {
  it("notes as matched only the entries whose decorators read it, and times the sticky ones", () => {
    const books = [book([entry("plain", { keys: ["storm"] }), entry("once", { keys: ["storm"], content: "@@dont_activate_after_match\nlore" }), entry("stays", { keys: ["storm"], sticky: 2 })])];
    const result = activate(books, { messages: [{ text: "a storm" }], countTokens: words, seed: "m1", chatLength: 3 });
    expect(result.entries.map((e) => e.entryId).sort()).toEqual(["once", "plain", "stays"]);
    expect(result.timedState).toEqual({ sticky: { "b.stays": { start: 3, end: 5 } }, cooldown: {}, matched: ["b.once"] });
  });
});
