/**
 * Prompt assembly: the order of DESIGN.md, macros, lorebook insertion, the
 * token budget — on hand-made characters and on every community card of
 * test-fixtures/cards/ read through the card importer.
 */
import { describe, expect, it } from "vitest";
import sakanaUrl from "../test-fixtures/cards/contest_Assistant_Sakana.png?inline";
import senseiUrl from "../test-fixtures/cards/default_CodingSensei.png?inline";
import seraphinaUrl from "../test-fixtures/cards/default_Seraphina.png?inline";
import rikaUrl from "../test-fixtures/cards/risu_rika.png?inline";
import { characterInputSchema } from "../schema/inputs.ts";
import { readCard, readPngCard } from "../worker/lib/character-card.ts";
import { dataUrlBytes } from "../worker/test/creator-api.ts";
import {
  type BuiltPrompt,
  buildPrompt,
  cardLore,
  CONTINUE_NUDGE,
  DEFAULT_SYSTEM_PROMPT,
  estimateTokens,
  type HistoryMessage,
  MESSAGE_OVERHEAD_TOKENS,
  type PromptCharacter,
  summaryPrompt,
} from "./prompt.ts";
import { replaceMacros } from "../schema/macros.ts";

const base: PromptCharacter & { creatorNotes: string } = {
  name: "Orla",
  description: "A lighthouse keeper.",
  longDescription: "{{char}} keeps the lighthouse on Gull Rock and talks to {{user}} every night.",
  personality: "Gruff, loyal, secretly sentimental.",
  scenario: "A storm is coming and <USER> is stranded at the lighthouse with <BOT>.",
  exampleConversation: "<START>\n{{user}}: Any ships tonight?\n{{char}}: *squints at the sea* Not a one.\n<START>\n{{user}}: Tea?\n{{char}}: Always.",
  systemPrompt: null,
  postHistoryInstructions: "Keep {{char}}'s replies under 100 words.",
  creatorNotes: "SECRET CREATOR NOTE: do not put me in prompts",
  characterBook: {
    entries: [
      { keys: ["Gull Rock"], content: "LORE-ROCK: Gull Rock is a granite island.", enabled: true, insertion_order: 20 },
      { keys: ["storm"], content: "LORE-STORM: Storms here last three days.", enabled: true, insertion_order: 10 },
      { keys: ["anything"], content: "LORE-CONSTANT: The lamp never goes out.", enabled: true, constant: true, insertion_order: 30 },
      { keys: ["tea"], content: "LORE-DISABLED", enabled: false, insertion_order: 1 },
      { keys: ["boat"], secondary_keys: ["oar"], selective: true, content: "LORE-BOAT", enabled: true, insertion_order: 5 },
    ],
  },
};

const options = { userName: "Mira", contextTokens: 8192, maxTokens: 512 };
const say = (content: string): HistoryMessage => ({ role: "user", content });
const reply = (content: string): HistoryMessage => ({ role: "assistant", content });
const allText = (messages: { content: string }[]) => messages.map((m) => m.content).join("\n");
/** The entries that made it into the prompt, by their "LORE-…" tag. */
const fired = (prompt: BuiltPrompt) => prompt.lorebook.map((entry) => entry.content.split(":")[0]);

describe("buildPrompt", () => {
  it("orders system prompt, description, personality, scenario, lorebook (a card entry goes after the character), examples, history, post-history instructions", () => {
    const prompt = buildPrompt(base, [reply("Evening."), say("Is a storm coming to Gull Rock?")], options);
    const roles = prompt.messages.map((m) => m.role);
    expect(roles).toEqual(["system", "assistant", "user", "system"]);
    const system = prompt.messages[0]!.content;
    const order = [
      "Write Orla's next reply",
      "Orla keeps the lighthouse on Gull Rock",
      "Gruff, loyal",
      "A storm is coming",
      "LORE-STORM",
      "LORE-ROCK",
      "LORE-CONSTANT",
      "Examples of how Orla speaks",
    ].map((needle) => system.indexOf(needle));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(prompt.messages[3]).toEqual({ role: "system", content: "Keep Orla's replies under 100 words." });
    expect(fired(prompt)).toEqual(["LORE-STORM", "LORE-ROCK", "LORE-CONSTANT"]);
  });

  it("replaces {{char}}, {{user}}, <BOT> and <USER> in any case, and never includes creator notes", () => {
    const prompt = buildPrompt({ ...base, personality: "Calls {{USER}} 'kid'; {{Char}} hums." }, [say("hi")], options);
    const text = allText(prompt.messages);
    expect(text).not.toMatch(/\{\{|\}\}|<bot>|<user>/i);
    expect(text).toContain("Calls Mira 'kid'; Orla hums.");
    expect(text).toContain("Mira is stranded at the lighthouse with Orla");
    expect(text).not.toContain("SECRET CREATOR NOTE");
    expect(text).not.toContain("<START>");
    expect(replaceMacros("{{user}} $& {{char}}", "A$1", "B$'")).toBe("B$' $& A$1");
  });

  it("uses the card's own system prompt, with {{original}} as ours", () => {
    const prompt = buildPrompt({ ...base, systemPrompt: "House rules. {{original}}" }, [say("hi")], options);
    expect(prompt.messages[0]!.content.startsWith(`House rules. ${replaceMacros(DEFAULT_SYSTEM_PROMPT, "Orla", "Mira")}`)).toBe(true);
  });

  it("inserts lorebook entries only for keys in the recent messages (SillyTavern's scan depth 2), never disabled ones", () => {
    const old = [say("Tell me about the storm."), reply("Later."), say("Tea?")];
    const prompt = buildPrompt(base, old, options);
    expect(fired(prompt)).toEqual(["LORE-CONSTANT"]);
    expect(allText(prompt.messages)).not.toContain("LORE-DISABLED");
    expect(fired(buildPrompt(base, [say("Tell me about the storm."), say("Tea?")], options))).toContain("LORE-STORM");
    const selective = fired(buildPrompt(base, [say("Take the boat")], options));
    expect(selective).not.toContain("LORE-BOAT");
    expect(fired(buildPrompt(base, [say("Take the boat and an oar")], options))).toContain("LORE-BOAT");
  });

  it("drops the oldest history first, and never the system prompt or the latest message", () => {
    const history: HistoryMessage[] = [];
    for (let i = 0; i < 60; i++) history.push(i % 2 ? reply(`reply ${i} ${"x".repeat(200)}`) : say(`message ${i} ${"y".repeat(200)}`));
    history.push(say("THE LATEST MESSAGE"));
    const prompt = buildPrompt(base, history, { ...options, contextTokens: 2000, maxTokens: 500 });
    expect(prompt.estimatedTokens).toBeLessThanOrEqual(1500);
    expect(prompt.historyIncluded).toBeLessThan(history.length);
    expect(prompt.historyIncluded).toBeGreaterThan(3);
    const kept = prompt.messages.slice(1, -1);
    // The newest messages, contiguous, ending with the latest.
    expect(kept.at(-1)!.content).toBe("THE LATEST MESSAGE");
    expect(kept.map((m) => m.content)).toEqual(history.slice(-kept.length).map((m) => m.content));
    expect(prompt.messages[0]!.content).toContain("Write Orla's next reply");

    // A budget too small even for the card: examples and lore go, system prompt and latest message stay.
    const tiny = buildPrompt(base, history, { ...options, contextTokens: 600, maxTokens: 512 });
    expect(tiny.messages.map((m) => m.role)).toEqual(["system", "user", "system"]);
    expect(tiny.messages[1]!.content).toBe("THE LATEST MESSAGE");
    expect(tiny.examplesIncluded).toBe(false);
    expect(tiny.lorebook).toEqual([]);
    expect(tiny.messages[0]!.content).toContain("Write Orla's next reply");
  });

  it("estimates tokens as ceil(characters / 4) plus 4 per message", () => {
    expect(estimateTokens("abcde")).toBe(2);
    const prompt = buildPrompt({ ...base, characterBook: null, exampleConversation: null, postHistoryInstructions: null }, [say("hello")], options);
    const expected = prompt.messages.reduce((sum, m) => sum + Math.ceil(m.content.length / 4) + MESSAGE_OVERHEAD_TOKENS, 0);
    expect(prompt.estimatedTokens).toBe(expected);
  });

  it("puts lore after the scenario (SillyTavern's wiAfter), then the persona and examples, then memory and the story so far before the history", () => {
    const prompt = buildPrompt(base, [reply("Evening."), say("Is a storm coming to Gull Rock?")], {
      ...options,
      userName: "Captain Vale",
      personaDescription: "{{user}} smuggles tea past {{char}}'s lighthouse.",
      memory: "{{user}} owes {{char}} a favour.",
      summary: "Vale arrived soaked; Orla lent her a coat.",
    });
    const system = prompt.messages[0]!.content;
    const order = [
      "A storm is coming and Captain Vale is stranded",
      "LORE-STORM",
      "Captain Vale's persona: Captain Vale smuggles tea past Orla's lighthouse.",
      "Examples of how Orla speaks",
      "Remember:\nCaptain Vale owes Orla a favour.",
      "The story so far:\nVale arrived soaked; Orla lent her a coat.",
    ].map((needle) => system.indexOf(needle));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(prompt.messages.slice(1).map((m) => m.role)).toEqual(["assistant", "user", "system"]);
    // Without them, nothing of theirs appears.
    expect(allText(buildPrompt(base, [say("hi")], options).messages)).not.toMatch(/persona:|Remember:|The story so far:/);
  });

  it("with a memory and a summary the budget still never drops the system prompt or the latest message; continue ends with the nudge", () => {
    const history: HistoryMessage[] = [];
    for (let i = 0; i < 40; i++) history.push(i % 2 ? reply(`reply ${i} ${"x".repeat(200)}`) : say(`message ${i} ${"y".repeat(200)}`));
    history.push(reply("THE REPLY TO CONTINUE"));
    const prompt = buildPrompt(base, history, {
      ...options,
      contextTokens: 900,
      maxTokens: 300,
      memory: "m".repeat(800),
      summary: "s".repeat(800),
      continueLast: true,
    });
    expect(prompt.messages[0]!.content).toContain("Write Orla's next reply");
    expect(prompt.messages[0]!.content).toContain("m".repeat(800));
    expect(prompt.messages.at(-3)).toEqual(reply("THE REPLY TO CONTINUE"));
    expect(prompt.messages.at(-1)).toEqual({ role: "system", content: CONTINUE_NUDGE });
    expect(prompt.historyIncluded).toBeLessThan(history.length);
  });

  it("the summary prompt carries the summary so far and the messages with their speakers' names", () => {
    const prompt = summaryPrompt("Orla", "Mira", "Mira arrived.", [
      { isUser: true, content: "Hello, {{char}}." },
      { isUser: false, content: "*nods* Hello." },
    ]);
    expect(prompt[0]!.role).toBe("system");
    expect(prompt[0]!.content).toContain("between Orla and Mira");
    expect(prompt[1]).toEqual({ role: "user", content: "Summary so far:\nMira arrived.\n\nNew messages:\nMira: Hello, Orla.\nOrla: *nods* Hello." });
    expect(summaryPrompt("Orla", "Mira", "", [{ isUser: true, content: "Hi" }])[1]!.content).toBe("New messages:\nMira: Hi");
  });

  it("joins neighbouring messages of one role so user and assistant alternate", () => {
    const prompt = buildPrompt(base, [reply("Hi."), say("One"), say("Two")], options);
    expect(prompt.messages.slice(1, -1)).toEqual([reply("Hi."), say("One\n\nTwo")]);
  });
});

describe("buildPrompt in a group chat (DESIGN.md \"Group chats\")", () => {
  const bo = { name: "Bo", description: "A ferryman who hums.", characterBook: { entries: [{ keys: ["ferry"], content: "BO-LORE: the ferry leaks." }] } };
  const cy = { name: "Cy", description: "A cartographer.".padEnd(600, " and more"), characterBook: null };
  const history: HistoryMessage[] = [
    { role: "assistant", content: "Evening.", name: "Orla" },
    { role: "user", content: "Is the ferry running?", name: "Mira" },
    { role: "assistant", content: "Not tonight.", name: "Bo" },
  ];
  const group = { userName: "Mira", contextTokens: 8192, maxTokens: 512, cast: [bo, cy] };

  it("names every history line, lists the cast after the persona, ends with the group nudge and stops at the others' names", () => {
    const prompt = buildPrompt(base, history, { ...group, personaDescription: "A traveller." });
    const system = prompt.messages[0]!.content;
    expect(system.indexOf("Mira's persona: A traveller.")).toBeLessThan(system.indexOf("Orla is in a group chat with Mira and:\n- Bo: A ferryman who hums.\n- Cy: A cartographer."));
    // Another member's lorebook fires on the shared history.
    expect(system).toContain("BO-LORE: the ferry leaks.");
    // The cast's descriptions are short.
    expect(system).not.toContain("and more".repeat(40));
    expect(prompt.messages.slice(1)).toEqual([
      { role: "assistant", content: "Orla: Evening." },
      { role: "user", content: "Mira: Is the ferry running?" },
      { role: "assistant", content: "Bo: Not tonight." },
      { role: "system", content: "Keep Orla's replies under 100 words." },
      { role: "system", content: "Write the next reply only as Orla." },
    ]);
    expect(prompt.stop).toEqual(["\nBo:", "\nCy:", "\nMira:"]);
    // A one-to-one chat has none of it.
    const single = buildPrompt(base, history, { userName: "Mira", contextTokens: 8192, maxTokens: 512 });
    expect(single.stop).toEqual([]);
    expect(single.messages.at(-1)).toEqual({ role: "system", content: "Keep Orla's replies under 100 words." });
  });

  it("puts the author's note `depth` messages before the end, and never joins it with its neighbours", () => {
    const at = (depth: number) =>
      buildPrompt(base, history, { ...group, authorNote: { text: "Keep {{char}} brief.", depth } })
        .messages.slice(1)
        .map((m) => m.content);
    expect(at(0).slice(0, 4)).toEqual(["Orla: Evening.", "Mira: Is the ferry running?", "Bo: Not tonight.", "Keep Orla brief."]);
    expect(at(1).slice(0, 4)).toEqual(["Orla: Evening.", "Mira: Is the ferry running?", "Keep Orla brief.", "Bo: Not tonight."]);
    expect(at(99)[0]).toBe("Keep Orla brief.");
  });

  it("a short budget drops history, examples, lore and the cast's descriptions, never the speaker's card or the latest message", () => {
    const long: HistoryMessage[] = Array.from({ length: 40 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      content: `${"word ".repeat(60)}${i}`,
      name: i % 2 ? "Bo" : "Mira",
    }));
    const prompt = buildPrompt(base, [...long, { role: "user", content: "Last words about the ferry.", name: "Mira" }], { ...group, contextTokens: 450, maxTokens: 300 });
    const system = prompt.messages[0]!.content;
    expect(system).toContain("Orla keeps the lighthouse on Gull Rock");
    expect(system).toContain("- Bo");
    expect(prompt.castDescriptionsIncluded).toBe(false);
    expect(prompt.examplesIncluded).toBe(false);
    expect(prompt.messages.at(-3)).toEqual({ role: "user", content: "Mira: Last words about the ferry." });
    expect(prompt.historyIncluded).toBeLessThan(41);
  });
});

describe("buildPrompt in a room of several people (DESIGN.md \"Shared rooms\")", () => {
  it("{{user}} is the answered message's author; the others are named after the persona, every line is named, and a reply stops at their names", () => {
    const history: HistoryMessage[] = [
      { role: "user", content: "Anyone home?", name: "Ana" },
      { role: "assistant", content: "Come in.", name: "Orla" },
      { role: "user", content: "Bo here too.", name: "Bo" },
    ];
    const prompt = buildPrompt(base, history, {
      userName: "Bo",
      personaDescription: "A ferryman who hums.",
      people: [{ name: "Ana", description: "A painter." }],
      contextTokens: 8192,
      maxTokens: 512,
    });
    const system = prompt.messages[0]!.content;
    expect(system.indexOf("Bo's persona: A ferryman who hums.")).toBeLessThan(system.indexOf("Also playing with Bo:\n- Ana: A painter."));
    expect(prompt.messages.slice(1)).toEqual([
      { role: "user", content: "Ana: Anyone home?" },
      { role: "assistant", content: "Orla: Come in." },
      { role: "user", content: "Bo: Bo here too." },
      { role: "system", content: "Keep Orla's replies under 100 words." },
      { role: "system", content: "Write the next reply only as Orla." },
    ]);
    expect(prompt.stop).toEqual(["\nAna:", "\nBo:"]);
  });
});

describe("a card's own lorebook without the room (cardLore)", () => {
  it("matches case-insensitively unless the entry is case-sensitive, and reads a malformed book as empty", () => {
    const book = (entry: Record<string, unknown>) => ({ ...base, characterBook: { entries: [{ content: "x", ...entry }] } });
    expect(cardLore(book({ keys: ["Storm"] }), [say("a STORM brews")], undefined, "Mira")).toHaveLength(1);
    expect(cardLore(book({ keys: ["Rock"], case_sensitive: true }), [say("rock")], undefined, "Mira")).toEqual([]);
    expect(cardLore(book({ keys: ["Rock"], case_sensitive: true }), [say("Rock")], undefined, "Mira")).toHaveLength(1);
    expect(cardLore({ ...base, characterBook: { entries: "nope" } }, [say("hi")], undefined, "Mira")).toEqual([]);
    expect(cardLore({ ...base, characterBook: { entries: [null, 3, { keys: ["a"] }] } }, [say("hi")], undefined, "Mira")).toEqual([]);
  });

  it("places before_char entries before the description and at_depth entries in the history with their role", () => {
    const book = {
      ...base,
      characterBook: {
        entries: [
          { keys: ["storm"], content: "LORE-BEFORE: before.", position: "before_char" },
          { keys: ["storm"], content: "LORE-DEPTH: one message up.", extensions: { position: 4, depth: 1, role: 1 } },
        ],
      },
    };
    const prompt = buildPrompt(book, [reply("Evening."), say("A storm?")], options);
    const system = prompt.messages[0]!.content;
    expect(system.indexOf("LORE-BEFORE")).toBeLessThan(system.indexOf("Orla keeps the lighthouse"));
    expect(prompt.messages.slice(1, -1)).toEqual([reply("Evening."), say("LORE-DEPTH: one message up.\n\nA storm?")]);
    expect(prompt.sections.find((section) => section.kind === "lorebook")!.tokens).toBeGreaterThan(estimateTokens("LORE-BEFORE: before."));
  });
});

describe("prompts from the community's cards (test-fixtures/cards)", () => {
  const cards = { seraphina: seraphinaUrl, sakana: sakanaUrl, sensei: senseiUrl, rika: rikaUrl };
  const load = (url: string) => {
    const card = readCard(readPngCard(dataUrlBytes(url)));
    const parsed = characterInputSchema.parse(card.input);
    return parsed;
  };
  // A history long enough that budgets bite, ending with a message that names lorebook keys.
  const chat = (last: string): HistoryMessage[] => [
    ...Array.from({ length: 40 }, (_, i) => (i % 2 ? reply(`Reply ${i}. ${"lorem ipsum ".repeat(40)}`) : say(`Message ${i}. ${"dolor sit ".repeat(40)}`))),
    say(last),
  ];

  for (const [name, url] of Object.entries(cards)) {
    it(`${name}: macros replaced, creator notes left out, budget kept, latest message kept`, () => {
      const character = load(url);
      const prompt = buildPrompt(character, chat("Tell me about the forest, the beasts, your magic, and money, you baka."), {
        userName: "Mira",
        contextTokens: 4096,
        maxTokens: 512,
      });
      const text = allText(prompt.messages);
      expect(text).not.toMatch(/\{\{(char|user)\}\}|<bot>|<user>/i);
      expect(text).toContain(character.name);
      if (character.creatorNotes) expect(text).not.toContain(character.creatorNotes.trim());
      expect(prompt.estimatedTokens).toBeLessThanOrEqual(4096 - 512);
      expect(prompt.messages.at(-1)!.content).toContain("Tell me about the forest");
      expect(prompt.historyIncluded).toBeLessThan(41);
      expect(prompt.messages[0]!.role).toBe("system");
    });
  }

  it("Seraphina: entries of her lorebook (Eldoria) come in by key, after the scenario, in insertion order", () => {
    const seraphina = load(seraphinaUrl);
    expect(seraphina.characterBook).toBeTruthy();
    const quiet = buildPrompt(seraphina, [say("Good morning.")], options);
    expect(quiet.lorebook).toEqual([]);
    const prompt = buildPrompt(seraphina, [say("Where am I? What is this forest, and those beasts?")], options);
    expect(prompt.lorebook.length).toBe(2);
    const entries = (seraphina.characterBook!.entries as { keys: string[]; content: string }[]).filter((e) =>
      e.keys.some((k) => ["forest", "beasts"].includes(k)),
    );
    const system = prompt.messages[0]!.content;
    for (const entry of entries) expect(system).toContain(replaceMacros(entry.content, "Seraphina", "Mira").trim().slice(0, 60));
  });

  it("Sakana: her large lorebook fires on 'Money' and 'baka', and a selective entry needs its secondary key", () => {
    const sakana = load(sakanaUrl);
    const prompt = buildPrompt(sakana, [say("Can you lend me money? Don't call me baka.")], options);
    expect(prompt.lorebook.length).toBe(2);
    const loves = buildPrompt(sakana, [say("I think I love this job")], options).lorebook;
    expect(loves).toHaveLength(0);
    expect(buildPrompt(sakana, [say("Do you love me?")], options).lorebook).toHaveLength(1);
  });
});
