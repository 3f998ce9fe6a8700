/**
 * Lorebook (World Info) activation: which entries of which books go into the
 * prompt for the next reply, where, and why. Pure (no I/O, no clock, no
 * Math.random): the room and the browser's "test" box run the same code.
 *
 * It follows SillyTavern's World Info scan field by field
 * (SillyTavern/SillyTavern `public/scripts/world-info.js`: `checkWorldInfo`,
 * `WorldInfoBuffer`, `WorldInfoTimedEffects`, `filterByInclusionGroups`) and
 * reads Character Card V3 `@@` decorators (kwaroran/character-card-spec-v3
 * SPEC_V3.md "Decorators"). The table of fields, SillyTavern's meaning and
 * ours is docs/decisions/0033-lorebook-activation.md.
 *
 * The scan is here; its parts are their own modules: types.ts (the public
 * shapes and defaults), entries.ts (a book compiled once per version),
 * matching.ts (keys), timed-effects.ts (sticky, cooldown, delay),
 * groups.ts (inclusion groups), decorators.ts, random.ts.
 */
import { type CompiledBook, type CompiledKey, compileBook, type Resolved } from "./entries.ts";
import { filterByInclusionGroups } from "./groups.ts";
import { clampDepth, type KeyHits, regexOfKey, ScanBuffer, textHasKey } from "./matching.ts";
import { seededRandom } from "./random.ts";
import { checkTimedEffects, isDelayed, setTimedEffects } from "./timed-effects.ts";
import type { ActivatedEntry, ActivationInput, ActivationReason, ActivationResult, Lorebook } from "./types.ts";

export * from "./types.ts";
export { type Decorator, parseDecorators } from "./decorators.ts";
export { parseRegexKey } from "./matching.ts";
export { seededRandom } from "./random.ts";

/** Why an entry fired, as ActivatedEntry tells it. */
type Why = Pick<ActivatedEntry, "reason" | "key" | "secondaryKey" | "decorator">;

/** A book's key automata and where their keys were seen in this reply's scan. */
interface BookScan {
  book: CompiledBook;
  lower: KeyHits;
  raw: KeyHits;
}

/**
 * The entries of `books` that fire for the next reply.
 *
 * `books` in priority order (the chat's, then the speaker's, then other
 * members'); within a book, higher `order` first, as SillyTavern's
 * `getSortedEntries`. A scan pass checks each entry (disabled, timers,
 * decorators, constant, sticky, primary keys, secondary keys with their
 * logic), then inclusion groups, then the probability roll and the token
 * budget in that order; with recursion on, what fired is scanned again until
 * nothing new fires, the budget is reached or `maxRecursionSteps` passes ran.
 * Timers are counted in messages of the branch (`chatLength`) and returned
 * for the room to keep. Throws nothing: unreadable keys and decorators are
 * ignored as SillyTavern ignores them.
 *
 * Each book is compiled once per book object (entries.ts): pass the same
 * object while the book does not change.
 */
export function activate(books: Lorebook | readonly Lorebook[], input: ActivationInput): ActivationResult {
  const bookList = Array.isArray(books) ? (books as readonly Lorebook[]) : [books as Lorebook];
  const substitute = input.substitute ?? ((text: string) => text);
  const includeNames = input.includeNames !== false;
  const chatLength = input.chatLength ?? input.messages.length;
  const characterMessages = input.characterMessageCount ?? input.messages.filter((m) => !m.isUser).length;
  const recursiveBooks = bookList.filter((b) => b.settings?.recursive === true);
  const recursive = recursiveBooks.length > 0;
  const stepLimits = recursiveBooks.map((b) => b.settings?.maxRecursionSteps).filter((n): n is number => typeof n === "number" && Number.isFinite(n) && n > 0);
  const maxSteps = stepLimits.length > 0 ? Math.min(...stepLimits) : 0;
  const budgets = [input.tokenBudget, ...bookList.map((b) => b.settings?.tokenBudget)].filter((n): n is number => typeof n === "number" && Number.isFinite(n));
  const budget = budgets.length > 0 ? Math.max(1, Math.round(Math.min(...budgets))) : Infinity;

  const compiled = bookList.map(compileBook);
  const sorted: Resolved[] = compiled.length === 1 ? compiled[0]!.entries : compiled.flatMap((book) => book.entries);
  const entryOf = (key: string) => {
    for (const book of compiled) {
      const found = book.byKey.get(key);
      if (found) return found.entry;
    }
    return undefined;
  };

  const { state, sticky, cooldown } = checkTimedEffects(input.timedState, entryOf, chatLength);
  const matchedBefore = new Set(state.matched);

  // The scan text: each message as "Name: text", newest first; keys of every book are found in one pass each.
  const messages = input.messages.map((m) => {
    const text = m.text.trim();
    return includeNames && m.name ? `${m.name}: ${text}` : text;
  });
  const inject = input.scanContext ?? [];
  const buffer = new ScanBuffer(messages, inject);
  const lowered: string[] = [];
  /** Texts of entries that fired, scanned by later passes (recursion). */
  const recursionTexts: string[] = [];
  const scans = new Map<CompiledBook, BookScan>();
  const scanOf = (book: CompiledBook): BookScan => {
    let scan = scans.get(book);
    if (!scan) {
      scan = { book, lower: book.lower.freshHits(), raw: book.raw.freshHits() };
      const depth = Math.min(messages.length, clampDepth(book.maxScanDepth));
      for (let i = 0; i < depth; i++) {
        if (book.lower.size > 0) book.lower.scan((lowered[i] ??= messages[i]!.toLowerCase()), i, scan.lower);
        if (book.raw.size > 0) book.raw.scan(messages[i]!, i, scan.raw);
      }
      for (const text of [...inject, ...recursionTexts]) addText(scan, text);
      scans.set(book, scan);
    }
    return scan;
  };
  const addText = (scan: BookScan, text: string) => {
    if (scan.book.lower.size > 0) scan.book.lower.scan(text.toLowerCase(), -1, scan.lower);
    if (scan.book.raw.size > 0) scan.book.raw.scan(text, -1, scan.raw);
  };

  /** The written key if `key` of `entry` matches within its scan depth, else null. */
  const matchOne = (key: CompiledKey, entry: Resolved): string | null => {
    const depth = clampDepth(entry.scanDepth);
    if (key.kind === "plain") {
      if (depth <= 0) return null;
      const scan = scanOf(entry.book);
      const hits = entry.caseSensitive ? scan.raw : scan.lower;
      const seen = entry.matchWholeWords && key.oneWord ? hits.whole[key.id]! : hits.any[key.id]!;
      return seen < depth ? key.text : null;
    }
    if (key.kind === "regex") {
      // A regex key ignores case sensitivity and whole words: its own flags decide.
      if (key.literal && depth > 0) {
        const scan = scanOf(entry.book);
        if ((key.literal.caseSensitive ? scan.raw : scan.lower).any[key.literal.id]! >= depth) return null;
      }
      return buffer.regexMatches(key.regex, depth) ? key.text : null;
    }
    const text = substitute(key.text).trim();
    if (!text) return null;
    const regex = regexOfKey(text);
    if (regex) return buffer.regexMatches(regex, depth) ? text : null;
    return textHasKey(buffer.text(depth), text, entry.caseSensitive, entry.matchWholeWords) ? text : null;
  };
  const firstMatch = (keys: readonly CompiledKey[], entry: Resolved): { key: string; regex: boolean } | null => {
    for (const key of keys) {
      const text = matchOne(key, entry);
      if (text !== null) return { key: text, regex: key.kind === "regex" || (key.kind === "macro" && regexOfKey(text) !== null) };
    }
    return null;
  };
  /** Keys that match and keys that exist (macro keys that expand to nothing do not). */
  const countMatches = (keys: readonly CompiledKey[], entry: Resolved): { matched: number; total: number; first: string | null } => {
    let matched = 0;
    let total = 0;
    let first: string | null = null;
    for (const key of keys) {
      if (key.kind === "macro" && !substitute(key.text).trim()) continue;
      total++;
      const text = matchOne(key, entry);
      if (text !== null) {
        matched++;
        first ??= text;
      }
    }
    return { matched, total, first };
  };

  const recursionLevels = [...new Set(sorted.filter((e) => e.recursionLevel > 0).map((e) => e.recursionLevel))].sort((a, b) => a - b);
  let recursionLevel = recursionLevels.shift() ?? 0;

  const activated: Resolved[] = [];
  const activatedKeys = new Set<string>();
  const reasons = new Map<string, Why>();
  const failedProbability = new Set<string>();
  let allActivatedText = "";
  let overflowed = false;
  let inRecursion = false;
  let steps = 0;
  let now: Resolved[] = [];
  const fire = (entry: Resolved, reason: ActivationReason, why: Partial<Omit<Why, "reason">> = {}) => {
    now.push(entry);
    reasons.set(entry.key, { reason, key: null, secondaryKey: null, decorator: null, ...why });
  };

  for (;;) {
    if (maxSteps && maxSteps <= steps) break;
    steps++;
    now = [];
    for (const entry of sorted) {
      const e = entry.entry;
      if (e.disable || failedProbability.has(entry.key) || activatedKeys.has(entry.key)) continue;
      const isSticky = sticky.has(entry.key);
      if (isDelayed(e, chatLength)) continue;
      if (cooldown.has(entry.key) && !isSticky) continue;
      if (!inRecursion && entry.recursionLevel > 0 && !isSticky) continue;
      if (inRecursion && entry.recursionLevel > recursionLevel && !isSticky) continue;
      if (inRecursion && recursive && e.excludeRecursion && !isSticky) continue;
      // Beside a recursive book, a book without recursion is not triggered by other entries.
      if (inRecursion && recursive && !entry.recursive && entry.recursionLevel === 0 && !isSticky) continue;
      if (entry.decorators.size > 0) {
        if (entry.decorators.has("activate")) {
          fire(entry, "constant", { decorator: "@@activate" });
          continue;
        }
        if (entry.decorators.has("dont_activate")) continue;
      }
      if (entry.isGreeting !== null && input.greetingIndex != null && entry.isGreeting !== input.greetingIndex) continue;
      if (entry.activateOnlyAfter !== null && characterMessages < entry.activateOnlyAfter) continue;
      if (entry.activateOnlyEvery !== null && entry.activateOnlyEvery > 0 && characterMessages % entry.activateOnlyEvery !== 0) continue;
      if (entry.decorators.has("dont_activate_after_match") && matchedBefore.has(entry.key)) continue;
      if (e.constant) {
        fire(entry, "constant");
        continue;
      }
      if (isSticky) {
        fire(entry, "sticky");
        continue;
      }
      if (entry.decorators.has("keep_activate_after_match") && matchedBefore.has(entry.key)) {
        fire(entry, "sticky", { decorator: "@@keep_activate_after_match" });
        continue;
      }
      if (entry.primary.length === 0) continue;
      const primary = firstMatch(entry.primary, entry);
      if (!primary) continue;
      if (entry.additional.some((keys) => !firstMatch(keys, entry))) continue;
      if (entry.exclude.length > 0 && firstMatch(entry.exclude, entry)) continue;
      const baseReason: ActivationReason = inRecursion ? "recursion" : primary.regex ? "regex" : "key";
      const secondary = countMatches(entry.secondary, entry);
      if (secondary.total === 0) {
        fire(entry, baseReason, { key: primary.key });
        continue;
      }
      const logic = e.selectiveLogic ?? "AND_ANY";
      const any = secondary.matched > 0;
      const all = secondary.matched === secondary.total;
      const passes = logic === "AND_ANY" ? any : logic === "NOT_ALL" ? !all : logic === "NOT_ANY" ? !any : all;
      const secondaryKey = logic === "AND_ANY" || logic === "AND_ALL" ? secondary.first : null;
      if (passes) fire(entry, inRecursion ? "recursion" : "secondary", { key: primary.key, secondaryKey });
    }

    // Sticky entries first, then the scan order (SillyTavern sorts `newEntries` so); `now` is in scan order and the sort is stable.
    let fresh = sticky.size > 0 ? [...now].sort((a, b) => Number(sticky.has(b.key)) - Number(sticky.has(a.key))) : now;
    const priorTokens = allActivatedText ? input.countTokens(allActivatedText) : 0;
    fresh = filterByInclusionGroups(fresh, activated, (entry) => score(entry), sticky, input.seed);

    let newContent = "";
    for (const entry of fresh) {
      if (entry.probability < 100 && !sticky.has(entry.key) && seededRandom(input.seed, `probability:${entry.key}`) * 100 > entry.probability) {
        failedProbability.add(entry.key);
        continue;
      }
      newContent += `${entry.content}\n`;
      if (priorTokens + input.countTokens(newContent) >= budget) {
        overflowed = true;
        break;
      }
      activated.push(entry);
      activatedKeys.add(entry.key);
    }

    const forRecursion = fresh.filter((e) => !failedProbability.has(e.key) && !e.entry.preventRecursion && (e.recursive || !recursive));
    let next = recursive && !overflowed && forRecursion.length > 0;
    if (!next && recursionLevels.length > 0) {
      next = true;
      recursionLevel = recursionLevels.shift()!;
    }
    if (!next) break;
    inRecursion = true;
    const text = forRecursion.map((e) => e.content).join("\n");
    buffer.addRecursion(text);
    recursionTexts.push(text);
    for (const scan of scans.values()) addText(scan, text);
    allActivatedText = `${text}\n${allActivatedText}`;
  }

  /** How many primary (and positive secondary) keys of `entry` occur: SillyTavern's `WorldInfoBuffer.getScore`. */
  function score(entry: Resolved): number {
    if (entry.primary.length === 0) return 0;
    const primary = countMatches(entry.primary, entry).matched;
    const secondary = countMatches(entry.secondary, entry);
    if (secondary.total === 0) return primary;
    const logic = entry.entry.selectiveLogic ?? "AND_ANY";
    if (logic === "AND_ANY") return primary + secondary.matched;
    if (logic === "AND_ALL") return secondary.matched === secondary.total ? primary + secondary.matched : primary;
    return primary;
  }

  setTimedEffects(state, activated, chatLength);

  // Sorted by order descending, each put in front: lowest order first, as SillyTavern joins them.
  const ordered = [...activated].sort((a, b) => b.order - a.order).reverse();
  const entries = ordered
    .filter((entry) => entry.content !== "")
    .map((entry) => ({
      lorebookId: entry.lorebookId,
      entryId: entry.entry.id,
      content: entry.content,
      position: entry.position,
      depth: entry.position === "at_depth" ? entry.depth : null,
      role: entry.position === "at_depth" ? entry.role : null,
      order: entry.order,
      ...reasons.get(entry.key)!,
      lorebookName: entry.lorebookName,
      title: entry.entry.comment?.trim() || entry.keys[0]?.trim() || "",
    }));
  return { entries, timedState: state, budgetOverflowed: overflowed };
}
