/**
 * The moderation providers (ai/moderation/):
 * - the offline screen's documented rules (S4 from a minor signal with the
 *   NSFW flag or sexual words, S12 on SFW input, the test marker) and what
 *   it must not catch;
 * - `workers-ai` against a stub of the AI binding (the outside world, passed
 *   to the constructor): the request sent to Llama Guard, both output forms,
 *   malformed output and a failing binding;
 * - `openai` against a real OpenAI-compatible moderations endpoint on
 *   loopback (worker/test/openai-server.ts: markers MOD-MINORS, MOD-HATE,
 *   MOD-FLAG:<category>, MOD-NEW, MOD-500, MOD-MALFORMED);
 * - which provider MODERATION_PROVIDER and AI_PROVIDER pick.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type AiRunner } from "../endpoints.ts";
import { moderatorFor, moderatorName } from "./choose.ts";
import { parseLlamaGuard, WorkersAIModerator } from "./llama-guard.ts";
import { HAZARD_CATEGORIES, isChildSafetyViolation, type ModerationInput, ModerationError } from "./moderator.ts";
import { OfflineModerator, offlineScreen } from "./offline-screen.ts";
import { OpenAIModerator } from "./openai-moderations.ts";
import { PreScreenedModerator } from "./pre-screen.ts";

const offline = new OfflineModerator();
const character = (text: string, nsfw: boolean): ModerationInput => ({ text, role: "user", nsfw });

describe("hazard categories", () => {
  it("are Llama Guard 3's fourteen, S4 being child sexual exploitation", () => {
    expect(Object.keys(HAZARD_CATEGORIES)).toEqual(Array.from({ length: 14 }, (_, i) => `S${i + 1}`));
    expect(HAZARD_CATEGORIES.S4).toBe("Child Sexual Exploitation");
    expect(HAZARD_CATEGORIES.S12).toBe("Sexual Content");
  });
});

describe("offline screen (a stand-in)", () => {
  it("refuses an NSFW character with a stated age under 18 as S4", async () => {
    const verdict = await offline.screen(character("Mia is 15 years old and lives next door.", true));
    expect(verdict).toEqual({ safe: false, categories: ["S4"], provider: "offline" });
    expect(isChildSafetyViolation(verdict)).toBe(true);
  });

  it("reads each documented way of stating an age", () => {
    for (const text of [
      "She is 16yo.",
      "He's 16 y/o.",
      "A girl aged 16.",
      "Age: 12",
      'Age("15")',
      "a fifteen-year-old",
      "a 17 yrs old runaway",
      "14 years of age",
    ]) {
      expect(offlineScreen(text, true), text).toEqual(["S4"]);
    }
  });

  it("lets adult ages and compound numbers through", () => {
    for (const text of [
      "Vera is 34 years old.",
      "She turned 18 years old last spring.",
      "a twenty-one-year-old bartender",
      "a 1000-year-old vampire",
      "Age: 19",
      "She lost her parents at age 12 and now, at 30, runs the inn.",
    ]) {
      expect(offlineScreen(text, true), text).toEqual([]);
    }
  });

  it("refuses sexual text about a 16-year-old even on a SFW character", async () => {
    const verdict = await offline.screen(character("A sexy 16-year-old cheerleader.", false));
    expect(isChildSafetyViolation(verdict)).toBe(true);
    expect(verdict.categories).toEqual(["S4", "S12"]);
  });

  it("lets a SFW character who mentions children through", async () => {
    const verdict = await offline.screen(character("A kindly teacher who loves helping children and kids learn to read.", false));
    expect(verdict).toEqual({ safe: true, categories: [], provider: "offline" });
  });

  it("weak minor terms count only next to sexual words; strong ones with the NSFW flag alone", () => {
    expect(offlineScreen("She is a widow with two children.", true)).toEqual([]);
    expect(offlineScreen("Naked, she teases the child.", true)).toEqual(["S4"]);
    expect(offlineScreen("An underage runaway.", true)).toEqual(["S4"]);
    expect(offlineScreen("An underage runaway.", false)).toEqual([]);
    expect(offlineScreen("She is a minor.", true)).toEqual(["S4"]);
  });

  it("weak terms count in the sexual term's own sentence, and not after a possessive", () => {
    // From a real community card (test-fixtures/cards/risu_rika.png): an adult's daydream of pregnancy.
    expect(offlineScreen("She often has romantic fantasies about making love to him and having his child.", true)).toEqual([]);
    expect(offlineScreen("Her kids are at school.\nTonight she wants sex.", true)).toEqual([]);
    expect(offlineScreen("A kid at the fair.\nLater, naked in the lake, the adults swim.", true)).toEqual([]);
    expect(offlineScreen("He wants sex with a child.", true)).toEqual(["S4"]);
  });

  it("matches whole words only and ignores negated signals", () => {
    expect(offlineScreen("Horny and kidding around about Teenage Mutant Ninja Turtles and her childhood.", true)).toEqual([]);
    expect(offlineScreen("All characters are 18+. She is not a minor, no minors here, and she isn't underage. Erotic.", true)).toEqual([]);
    expect(offlineScreen("Sexy. A minor character in the story is the mayor.", true)).toEqual([]);
  });

  it("flags sexual words on a SFW character as S12 and allows them on an NSFW one", async () => {
    expect(await offline.screen(character("A seductive bartender.", false))).toEqual({ safe: false, categories: ["S12"], provider: "offline" });
    expect(await offline.screen(character("A seductive bartender.", true))).toEqual({ safe: true, categories: [], provider: "offline" });
  });

  it("flags any category through the test marker", async () => {
    const verdict = await offline.screen({ text: "They are vermin [[moderation:S10]]", role: "assistant", nsfw: true });
    expect(verdict).toEqual({ safe: false, categories: ["S10"], provider: "offline" });
    expect(isChildSafetyViolation(verdict)).toBe(false);
    expect(offlineScreen("[[Moderation:s4]] [[moderation:S15]]", false)).toEqual(["S4"]);
  });

  it("rejects when the signal has already aborted", async () => {
    await expect(offline.screen(character("Hello.", false), { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
  });
});

/** A stub of the AI binding: records each call and answers with `answer(inputs)`. */
function stubAi(answer: (inputs: Record<string, unknown>) => unknown) {
  const calls: { model: string; inputs: Record<string, unknown> }[] = [];
  const ai: AiRunner = {
    async run(model, inputs) {
      calls.push({ model, inputs });
      return answer(inputs);
    },
  };
  return { ai, calls };
}

describe("workers-ai provider (Llama Guard 3, stubbed binding)", () => {
  it("sends a person's text as the only user turn and reads 'safe'", async () => {
    const { ai, calls } = stubAi(() => ({ response: "safe" }));
    const verdict = await new WorkersAIModerator(ai).screen(character("Hello there.", false));
    expect(verdict).toEqual({ safe: true, categories: [], provider: "workers-ai" });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.model).toBe("@cf/meta/llama-guard-3-8b");
    expect(calls[0]!.inputs.messages).toEqual([{ role: "user", content: "Hello there." }]);
  });

  it("sends a reply as the assistant turn after the person's message", async () => {
    const { ai, calls } = stubAi(() => ({ response: "safe" }));
    await new WorkersAIModerator(ai, "@cf/meta/llama-guard-3-8b").screen({
      text: "The tide is in.",
      role: "assistant",
      context: "Any ships tonight?",
      nsfw: false,
    });
    expect(calls[0]!.inputs.messages).toEqual([
      { role: "user", content: "Any ships tonight?" },
      { role: "assistant", content: "The tide is in." },
    ]);
  });

  it("reads 'unsafe' with one or several categories", async () => {
    const screen = (response: unknown, nsfw = false) => new WorkersAIModerator(stubAi(() => ({ response })).ai).screen(character("x", nsfw));
    const s4 = await screen("unsafe\nS4");
    expect(s4).toEqual({ safe: false, categories: ["S4"], provider: "workers-ai" });
    expect(isChildSafetyViolation(s4)).toBe(true);
    expect((await screen("unsafe\nS1,S10")).categories).toEqual(["S1", "S10"]);
    expect((await screen("\n\nunsafe\nS10, S1\nS10\n")).categories).toEqual(["S1", "S10"]);
    expect(await screen("unsafe")).toEqual({ safe: false, categories: [], provider: "workers-ai" });
  });

  it("reads the object form", async () => {
    const screen = (response: unknown, nsfw = false) => new WorkersAIModerator(stubAi(() => ({ response })).ai).screen(character("x", nsfw));
    expect(await screen({ safe: true, categories: [] })).toEqual({ safe: true, categories: [], provider: "workers-ai" });
    expect(await screen({ safe: false, categories: ["S4"] })).toEqual({ safe: false, categories: ["S4"], provider: "workers-ai" });
    expect((await screen({ safe: false, categories: ["S11: Suicide & Self-Harm", "Hate"] })).categories).toEqual(["S10", "S11"]);
    expect((await screen('{"safe": false, "categories": ["S2"]}')).categories).toEqual(["S2"]);
  });

  it("drops S12 for an NSFW character, never S4", async () => {
    const screen = (response: unknown, nsfw: boolean) => new WorkersAIModerator(stubAi(() => ({ response })).ai).screen(character("x", nsfw));
    expect(await screen("unsafe\nS12", true)).toEqual({ safe: true, categories: [], provider: "workers-ai" });
    expect(await screen("unsafe\nS12", false)).toEqual({ safe: false, categories: ["S12"], provider: "workers-ai" });
    expect(await screen("unsafe\nS4,S12", true)).toEqual({ safe: false, categories: ["S4"], provider: "workers-ai" });
  });

  it("treats malformed output as a ModerationError, never as safe", async () => {
    for (const output of [
      { response: "maybe" },
      { response: "unsafe\nS15" },
      { response: "safe\nS1" },
      { response: "" },
      { response: { categories: ["S1"] } },
      { response: "{broken" },
      {},
      null,
      "safe",
    ]) {
      expect(() => parseLlamaGuard(output), JSON.stringify(output)).toThrow(ModerationError);
      await expect(new WorkersAIModerator(stubAi(() => output).ai).screen(character("x", false))).rejects.toMatchObject({
        name: "ModerationError",
        provider: "workers-ai",
      });
    }
  });

  it("turns a failing binding into a ModerationError, but an abort stays an abort", async () => {
    const failing: AiRunner = {
      run: async () => {
        throw new Error("3040: Capacity temporarily exceeded");
      },
    };
    await expect(new WorkersAIModerator(failing).screen(character("x", false))).rejects.toThrow(/Capacity temporarily exceeded/);
    await expect(new WorkersAIModerator(failing).screen(character("x", false))).rejects.toBeInstanceOf(ModerationError);
    const aborted = AbortSignal.abort();
    const rejects: AiRunner = { run: async () => Promise.reject(aborted.reason) };
    const error = await new WorkersAIModerator(rejects).screen(character("x", false), { signal: aborted }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ModerationError);
    expect(error).toMatchObject({ name: "AbortError" });
  });
});

describe("openai provider (a real OpenAI-compatible moderations endpoint)", () => {
  /** The moderator, and the requests it made (URL, headers, body). */
  function openai(apiKey: string | undefined = env.OPENAI_API_KEY) {
    const requests: { url: string; authorization: string | null; body: unknown }[] = [];
    const recordingFetch: typeof fetch = async (url, init) => {
      requests.push({
        url: String(url),
        authorization: new Headers(init?.headers).get("authorization"),
        body: JSON.parse(String(init?.body)),
      });
      return fetch(url, init);
    };
    return { moderator: new OpenAIModerator({ baseUrl: env.OPENAI_BASE_URL, apiKey, fetch: recordingFetch }), requests };
  }

  it("posts {model, input} with the key to /moderations; not flagged is safe", async () => {
    const { moderator, requests } = openai();
    expect(await moderator.screen({ text: "Any ships tonight?", role: "assistant", context: "ignored", nsfw: false })).toEqual({
      safe: true,
      categories: [],
      provider: "openai",
    });
    expect(requests).toEqual([
      {
        url: `${env.OPENAI_BASE_URL}/moderations`,
        authorization: "Bearer test-key",
        body: { model: "omni-moderation-latest", input: "Any ships tonight?" },
      },
    ]);
  });

  it("maps sexual/minors to S4 and sexual to S12 (dropped for NSFW)", async () => {
    const { moderator } = openai();
    const sfw = await moderator.screen(character("MOD-MINORS", false));
    expect(sfw).toEqual({ safe: false, categories: ["S4", "S12"], provider: "openai" });
    expect(isChildSafetyViolation(sfw)).toBe(true);
    expect(await moderator.screen(character("MOD-MINORS", true))).toEqual({ safe: false, categories: ["S4"], provider: "openai" });
    expect(await moderator.screen(character("MOD-FLAG:sexual", true))).toEqual({ safe: true, categories: [], provider: "openai" });
  });

  it("maps hate, harassment, self-harm and illicit/violent by the documented table", async () => {
    const { moderator } = openai();
    expect(await moderator.screen(character("MOD-HATE", false))).toEqual({ safe: false, categories: ["S10"], provider: "openai" });
    const several = await moderator.screen(character("MOD-FLAG:self-harm/intent MOD-FLAG:illicit/violent MOD-FLAG:harassment MOD-FLAG:illicit", true));
    expect(several.categories).toEqual(["S1", "S2", "S10", "S11"]);
    expect(await moderator.screen(character("MOD-NEW", false))).toEqual({ safe: false, categories: [], provider: "openai" });
  });

  it("maps every omni-moderation category as documented", async () => {
    const expected = {
      harassment: "S10",
      "harassment/threatening": "S10",
      hate: "S10",
      "hate/threatening": "S10",
      illicit: "S2",
      "illicit/violent": "S1",
      "self-harm": "S11",
      "self-harm/intent": "S11",
      "self-harm/instructions": "S11",
      sexual: "S12",
      "sexual/minors": "S4",
      violence: "S1",
      "violence/graphic": "S1",
    };
    const { moderator } = openai();
    for (const [category, code] of Object.entries(expected)) {
      expect((await moderator.screen(character(`MOD-FLAG:${category}`, false))).categories, category).toEqual([code]);
    }
  });

  it("a 500, a wrong key, no result or no server is a ModerationError", async () => {
    await expect(openai().moderator.screen(character("MOD-500", false))).rejects.toMatchObject({
      name: "ModerationError",
      provider: "openai",
      status: 500,
    });
    await expect(openai("wrong").moderator.screen(character("hello", false))).rejects.toMatchObject({ status: 401 });
    await expect(openai().moderator.screen(character("MOD-MALFORMED", false))).rejects.toMatchObject({
      name: "ModerationError",
      status: 200,
    });
    await expect(new OpenAIModerator({ baseUrl: "http://127.0.0.1:9" }).screen(character("hello", false))).rejects.toBeInstanceOf(
      ModerationError,
    );
  });
});

describe("provider choice (MODERATION_PROVIDER, else AI_PROVIDER)", () => {
  it("follows AI_PROVIDER when MODERATION_PROVIDER is empty", () => {
    expect(moderatorName({})).toBe("offline");
    expect(moderatorName({ MODERATION_PROVIDER: "", AI_PROVIDER: "offline" })).toBe("offline");
    expect(moderatorName({ AI_PROVIDER: "workers-ai", AI: {} })).toBe("workers-ai");
    expect(moderatorName({ AI_PROVIDER: "workers-ai" })).toBe("offline");
    expect(moderatorName({ AI_PROVIDER: "openai", OPENAI_BASE_URL: "http://x" })).toBe("openai");
    expect(moderatorName({ AI_PROVIDER: "openai", OPENAI_BASE_URL: "" })).toBe("offline");
  });

  it("obeys MODERATION_PROVIDER over AI_PROVIDER, and refuses one that cannot work", () => {
    expect(moderatorName({ MODERATION_PROVIDER: "offline", AI_PROVIDER: "workers-ai", AI: {} })).toBe("offline");
    expect(moderatorName({ MODERATION_PROVIDER: " Workers-AI ", AI_PROVIDER: "offline", AI: {} })).toBe("workers-ai");
    expect(moderatorName({ MODERATION_PROVIDER: "openai", MODERATION_BASE_URL: "http://m" })).toBe("openai");
    expect(() => moderatorName({ MODERATION_PROVIDER: "workers-ai" })).toThrow(ModerationError);
    expect(() => moderatorName({ MODERATION_PROVIDER: "openai", OPENAI_BASE_URL: "" })).toThrow(ModerationError);
    expect(() => moderatorFor({ MODERATION_PROVIDER: "llama-guard" })).toThrow(/not one of workers-ai, openai, offline/);
  });

  it("builds the chosen provider behind the pre-screen: the test environment gets the offline screen", async () => {
    expect(moderatorFor(env)).toBeInstanceOf(PreScreenedModerator);
    expect(moderatorFor(env).inner).toBeInstanceOf(OfflineModerator);
    expect(moderatorFor({ MODERATION_PROVIDER: "workers-ai", AI: stubAi(() => null).ai }).inner).toBeInstanceOf(WorkersAIModerator);
    const viaModerationVars = moderatorFor({
      MODERATION_PROVIDER: "openai",
      MODERATION_BASE_URL: env.OPENAI_BASE_URL,
      MODERATION_API_KEY: env.OPENAI_API_KEY,
      OPENAI_BASE_URL: "http://127.0.0.1:9",
      OPENAI_API_KEY: "wrong",
    });
    expect(await viaModerationVars.screen(character("MOD-HATE", false))).toMatchObject({ categories: ["S10"], provider: "openai" });
    const viaOpenAIVars = moderatorFor({ AI_PROVIDER: "openai", OPENAI_BASE_URL: env.OPENAI_BASE_URL, OPENAI_API_KEY: env.OPENAI_API_KEY });
    expect(await viaOpenAIVars.screen(character("MOD-HATE", false))).toMatchObject({ categories: ["S10"], provider: "openai" });
  });
});
