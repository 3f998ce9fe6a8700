/**
 * The embedders: the offline one on real sentences (recall needs a question
 * to land nearest the fact it asks about), the OpenAI-compatible one
 * against the loopback server of worker/test/openai-server.ts, the Workers
 * AI one against a stub of the `AI` binding, and the choice by configuration.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AiRunner } from "../endpoints.ts";
import { createEmbedder, embeddingProviderName, OpenAIEmbedder, WorkersAIEmbedder } from "./embedders.ts";
import { OFFLINE_DIMENSIONS, OfflineEmbedder, offlineVector, stem, words } from "./offline.ts";

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);
const length = (a: Float32Array) => Math.sqrt(dot(a, a));

describe("offline embedder", () => {
  const embedder = new OfflineEmbedder();

  it("is deterministic, unit length, and names its space", async () => {
    const [a, b] = await embedder.embed(["The silver key is under the oak.", "The silver key is under the oak."]);
    expect(a).toHaveLength(OFFLINE_DIMENSIONS);
    expect([...a!]).toEqual([...b!]);
    expect(length(a!)).toBeCloseTo(1, 5);
    expect(embedder.id).toBe(`offline-hash-v1:${OFFLINE_DIMENSIONS}`);
    expect([...offlineVector("the and of ?")].every((x) => x === 0)).toBe(true);
  });

  it("puts a question nearest the sentence it asks about, among unrelated ones", () => {
    const facts = [
      "My sister keeps bees on the roof of the old mill.",
      "The smuggler's boat is called the Grey Heron.",
      "We rode through the forest until the sun went down.",
      "The captain laughed and poured another cup of wine.",
      "I hid the letters inside the hollow statue in the garden.",
    ];
    const questions = ["Where does my sister keep her bees?", "What is the smuggler's boat called?", "Where did I hide the letters?"];
    const expected = [0, 1, 4];
    questions.forEach((question, i) => {
      const q = offlineVector(question);
      const scores = facts.map((fact) => dot(q, offlineVector(fact)));
      expect(scores.indexOf(Math.max(...scores))).toBe(expected[i]);
    });
  });

  it("meets inflections and other scripts", () => {
    expect(stem("keeps")).toBe("keep");
    expect(stem("stories")).toBe("story");
    expect(stem("stopped")).toBe("stop");
    expect(words("Café CRÈME, l'été")).toEqual(["cafe", "creme", "lete"]);
    expect(words("東京タワー")).toEqual(["東京", "京タ", "タワ", "ワー"]);
    const german = dot(offlineVector("Der Schlüssel liegt unter der Eiche."), offlineVector("Wo liegt der Schlüssel?"));
    const unrelated = dot(offlineVector("Der Schlüssel liegt unter der Eiche."), offlineVector("Das Pferd ist schwarz."));
    expect(german).toBeGreaterThan(unrelated + 0.2);
    const japanese = dot(offlineVector("東京タワーで会いましょう"), offlineVector("東京タワーはどこ"));
    expect(japanese).toBeGreaterThan(0.3);
  });
});

describe("OpenAI-compatible embedder", () => {
  const endpoint = () => ({ baseUrl: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY });

  it("POSTs {model, input} to /embeddings and answers unit vectors in input order", async () => {
    const vectors = await new OpenAIEmbedder(endpoint(), "embed-test").embed(["aaa", "bb"]);
    expect(vectors).toHaveLength(2);
    // The server answers rows in reverse order: "aaa" is all a's, "bb" all b's.
    expect([...vectors[0]!]).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect([...vectors[1]!]).toEqual([0, 1, 0, 0, 0, 0, 0, 0]);
  });

  it("a failing endpoint or a missing vector is an EmbeddingError", async () => {
    await expect(new OpenAIEmbedder(endpoint(), "error-500").embed(["a"])).rejects.toMatchObject({ name: "EmbeddingError", status: 500 });
    await expect(new OpenAIEmbedder(endpoint(), "short").embed(["a", "b"])).rejects.toThrow(/1 vectors for 2 texts/);
  });
});

describe("Workers AI embedder", () => {
  it("runs bge-m3 with {text: [...]} and reads {data}", async () => {
    const calls: { model: string; inputs: Record<string, unknown> }[] = [];
    const ai: AiRunner = {
      async run(model, inputs) {
        calls.push({ model, inputs });
        return { shape: [2, 2], data: [[3, 4], [0, 2]], pooling: "cls" };
      },
    };
    const vectors = await new WorkersAIEmbedder(ai, "@cf/baai/bge-m3").embed(["one", "two"]);
    expect(calls).toEqual([{ model: "@cf/baai/bge-m3", inputs: { text: ["one", "two"] } }]);
    expect([...vectors[0]!].map((x) => Number(x.toFixed(3)))).toEqual([0.6, 0.8]);
    expect([...vectors[1]!]).toEqual([0, 1]);
    const failing: AiRunner = {
      async run() {
        throw new Error("3040: capacity");
      },
    };
    await expect(new WorkersAIEmbedder(failing, "m").embed(["x"])).rejects.toThrow(/Workers AI m: Error: 3040/);
  });
});

describe("choice by configuration", () => {
  it("EMBEDDING_PROVIDER, else AI_PROVIDER; missing binding or base URL: offline", () => {
    const ai = { run: async () => ({}) };
    expect(embeddingProviderName({ EMBEDDING_PROVIDER: "workers-ai", AI: ai })).toBe("workers-ai");
    expect(embeddingProviderName({ EMBEDDING_PROVIDER: "workers-ai" })).toBe("offline");
    expect(embeddingProviderName({ AI_PROVIDER: "openai", OPENAI_BASE_URL: "http://127.0.0.1:1/v1" })).toBe("openai");
    expect(embeddingProviderName({ EMBEDDING_PROVIDER: "offline", AI_PROVIDER: "workers-ai", AI: ai })).toBe("offline");
    expect(embeddingProviderName({ EMBEDDING_PROVIDER: "nonsense" })).toBe("offline");
    expect(createEmbedder({ EMBEDDING_PROVIDER: "openai", OPENAI_BASE_URL: "http://x/v1/", EMBEDDING_MODEL: "m" }).id).toBe("openai:http://x/v1:m");
    expect(createEmbedder({ AI_PROVIDER: "workers-ai", AI: ai }).id).toBe("workers-ai:@cf/baai/bge-m3");
  });
});
