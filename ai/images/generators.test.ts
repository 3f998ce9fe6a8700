/**
 * The image generators: the offline painter (a real picture that follows
 * the prompt's words; same prompt, same picture; different prompts,
 * visibly different pictures), the OpenAI-compatible one against the
 * loopback server of worker/test/openai-server.ts (base64 and URL answers,
 * refusal, failure, timeout, a person's guarded endpoint), the Workers AI
 * one against stubs of the `AI` binding answering as FLUX.1 [schnell]
 * does, and the choice by configuration.
 */
import { env } from "cloudflare:workers";
import { decode } from "fast-png";
import { encode as encodeJpeg } from "jpeg-js";
import { describe, expect, it } from "vitest";
import type { AiRunner } from "../endpoints.ts";
import { createImageGenerator, imageHeader, imageProviderName, OpenAIImageGenerator, personImageGenerator, WorkersAIImageGenerator } from "./generators.ts";
import { imageSide } from "./image-generator.ts";
import { OfflineImageGenerator, paintPng } from "./offline-painter.ts";
import { sceneOf } from "./painter/scene.ts";

/** Mean RGB of the rows [from, to) of a decoded 3-channel picture. */
function meanOf(png: Uint8Array, from: number, to: number): [number, number, number] {
  const { width, data, channels } = decode(png);
  const sum = [0, 0, 0];
  for (let y = from; y < to; y++) for (let x = 0; x < width; x++) for (let c = 0; c < 3; c++) sum[c]! += data[(y * width + x) * channels + c]!;
  const n = (to - from) * width;
  return sum.map((v) => v / n) as [number, number, number];
}

/** Mean absolute difference of two pictures' bytes, 0–255. */
function difference(a: Uint8Array, b: Uint8Array): number {
  const da = decode(a).data;
  const db = decode(b).data;
  let sum = 0;
  for (let i = 0; i < da.length; i++) sum += Math.abs(da[i]! - db[i]!);
  return sum / da.length;
}

describe("offline painter", () => {
  it("reads a scene from the prompt's words", () => {
    const sea = sceneOf("A night sea under the moon");
    expect(sea.time).toBe("night");
    expect(sea.ground).toBe("sea");
    expect([...sea.features]).toEqual(expect.arrayContaining(["moon", "stars"]));
    const knight = sceneOf("a knight in a crimson cloak before a castle at sunset");
    expect(knight.time).toBe("dusk");
    expect([...knight.features]).toEqual(expect.arrayContaining(["figure", "castle", "sun"]));
    expect(knight.namedAccent).toBe(true);
    expect(sceneOf("a cosy tavern with a fire").ground).toBe("room");
    expect(sceneOf("the feeling of a forgotten song").ground).toBe("none");
    const avatar = sceneOf("Character portrait for an avatar, head and shoulders. An old captain with a white beard.");
    expect(avatar.portrait).toBe(true);
    expect(avatar.features.has("figure")).toBe(true);
  });

  it("paints a night sea dark blue above, with a horizon, and a day meadow bright", async () => {
    const { bytes, width, height, contentType } = await new OfflineImageGenerator().generate("A night sea under the moon", { size: 512 });
    expect([contentType, width, height]).toEqual(["image/png", 512, 512]);
    expect(decode(bytes)).toMatchObject({ width: 512, height: 512 });
    const sky = meanOf(bytes, 0, 100);
    // Dark, and blue above red and green.
    expect(sky[0] + sky[1] + sky[2]).toBeLessThan(3 * 70);
    expect(sky[2]).toBeGreaterThan(sky[0]);
    const meadow = meanOf(paintPng("a sunny meadow of flowers at midday", 512), 0, 100);
    expect(meadow[0] + meadow[1] + meadow[2]).toBeGreaterThan(3 * 120);
    // A meadow's lower half is green above blue.
    const grass = meanOf(paintPng("a sunny meadow of flowers at midday", 512), 400, 512);
    expect(grass[1]).toBeGreaterThan(grass[2]);
  });

  it("is deterministic, and different prompts give visibly different pictures", () => {
    const a = paintPng("a snowy mountain village at dawn", 256);
    expect(paintPng("a snowy mountain village at dawn", 256)).toEqual(a);
    const prompts = ["a snowy mountain village at dawn", "neon city street in the rain at night", "the feeling of a forgotten song", "a forgotten song, the feeling of"];
    const pictures = prompts.map((prompt) => paintPng(prompt, 256));
    for (let i = 0; i < pictures.length; i++) {
      for (let j = i + 1; j < pictures.length; j++) expect(difference(pictures[i]!, pictures[j]!), `${prompts[i]} / ${prompts[j]}`).toBeGreaterThan(8);
    }
  });

  it("keeps sizes within 256–1,536 px in multiples of 8, and honours an abort", async () => {
    expect([imageSide(undefined), imageSide(10), imageSide(5000), imageSide(1001)]).toEqual([768, 256, 1536, 1000]);
    await expect(new OfflineImageGenerator().generate("x", { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
  });
});

describe("OpenAI-compatible image generator", () => {
  const endpoint = () => ({ baseUrl: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY });

  it("reads a b64_json answer and a url answer, with the size asked", async () => {
    const b64 = await new OpenAIImageGenerator(endpoint(), "b64").generate("a night sea", { size: 256 });
    expect([b64.contentType, b64.width, b64.height]).toEqual(["image/png", 256, 256]);
    expect(b64.bytes).toEqual(paintPng("a night sea", 256));
    const linked = await new OpenAIImageGenerator(endpoint(), "url").generate("a castle at dawn", { size: 320 });
    expect([linked.width, linked.height]).toEqual([320, 320]);
    expect(linked.bytes).toEqual(paintPng("a castle at dawn", 320));
  });

  it("a refusal is an ImageError with refused; a failure, an empty answer and a timeout are ImageErrors", async () => {
    await expect(new OpenAIImageGenerator(endpoint(), "refused").generate("x")).rejects.toMatchObject({ name: "ImageError", status: 400, refused: true });
    await expect(new OpenAIImageGenerator(endpoint(), "error-500").generate("x")).rejects.toMatchObject({ name: "ImageError", status: 500, refused: false });
    await expect(new OpenAIImageGenerator(endpoint(), "empty").generate("x")).rejects.toThrow(/answered no image/);
    const hanging = new OpenAIImageGenerator(endpoint(), "hang");
    hanging.timeoutMs = 300;
    await expect(hanging.generate("x")).rejects.toThrow(/no picture within 300 ms/);
  });

  it("a person's endpoint: the address rules hold and the key never shows", async () => {
    const policy = { development: true, siteHost: null };
    const own = personImageGenerator({ baseUrl: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY, model: "b64", policy });
    expect((await own.generate("a meadow", { size: 256 })).width).toBe(256);
    const wrongKey = personImageGenerator({ baseUrl: env.OPENAI_BASE_URL, apiKey: "sk-secret-person-key", model: "b64", policy });
    const error = (await wrongKey.generate("x").then(() => null, (e: unknown) => e)) as Error;
    expect(error).toMatchObject({ name: "ImageError", status: 401 });
    expect(error.message).not.toContain("sk-secret-person-key");
    const privateRedirect = personImageGenerator({ baseUrl: env.OPENAI_BASE_URL.replace("/v1", "/redirect-private/v1"), model: "b64", policy });
    await expect(privateRedirect.generate("x")).rejects.toMatchObject({ name: "EndpointRefused" });
    const production = personImageGenerator({ baseUrl: env.OPENAI_BASE_URL, model: "b64", policy: { development: false, siteHost: null } });
    await expect(production.generate("x")).rejects.toMatchObject({ name: "EndpointRefused" });
  });
});

/** A JPEG header of `width` × `height`: SOI, an APP0 segment, then SOF0 (what FLUX on Workers AI answers, base64). */
function jpegHeader(width: number, height: number): Uint8Array {
  return Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 255, width >> 8, width & 255, 0x03, 0, 0, 0, 0]);
}

const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

describe("Workers AI image generator", () => {
  it("runs FLUX.1 [schnell] with {prompt, steps} and keeps the base64 JPEG it answers as a PNG of the same pixels", async () => {
    // A real JPEG: the top half orange, the bottom half blue.
    const width = 320;
    const height = 256;
    const rgba = new Uint8Array(width * height * 4);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rgba.set(y < height / 2 ? [240, 140, 20, 255] : [20, 60, 200, 255], (y * width + x) * 4);
    const jpeg = new Uint8Array(encodeJpeg({ width, height, data: rgba }, 90).data);
    const calls: { model: string; inputs: Record<string, unknown> }[] = [];
    const ai: AiRunner = {
      async run(model, inputs) {
        calls.push({ model, inputs });
        return { image: base64(jpeg) };
      },
    };
    const picture = await new WorkersAIImageGenerator(ai, "@cf/black-forest-labs/flux-1-schnell").generate("a cyberpunk lizard");
    expect(calls).toEqual([{ model: "@cf/black-forest-labs/flux-1-schnell", inputs: { prompt: "a cyberpunk lizard", steps: 4 } }]);
    expect([picture.contentType, picture.width, picture.height]).toEqual(["image/png", width, height]);
    expect(imageHeader(picture.bytes, "t")).toEqual({ contentType: "image/png", width, height });
    const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) < 8);
    expect(near(meanOf(picture.bytes, 0, height / 2 - 8), [240, 140, 20])).toBe(true);
    expect(near(meanOf(picture.bytes, height / 2 + 8, height), [20, 60, 200])).toBe(true);
  });

  it("a JPEG it cannot read is an ImageError, not a broken picture", async () => {
    const ai: AiRunner = { run: async () => ({ image: base64(jpegHeader(1024, 1024)) }) };
    await expect(new WorkersAIImageGenerator(ai, "m").generate("x")).rejects.toMatchObject({ name: "ImageError", message: expect.stringMatching(/JPEG that cannot be read/) });
  });

  it("reads the PNG stream a Stable Diffusion model answers", async () => {
    const png = paintPng("a lighthouse", 256);
    const ai: AiRunner = { run: async () => new Response(png).body };
    const picture = await new WorkersAIImageGenerator(ai, "@cf/bytedance/stable-diffusion-xl-lightning").generate("a lighthouse");
    expect([picture.contentType, picture.width, picture.bytes.length]).toEqual(["image/png", 256, png.length]);
  });

  it("its filter's refusal, a failure, no image and a timeout", async () => {
    const failing = (message: string): AiRunner => ({
      async run() {
        throw new Error(message);
      },
    });
    await expect(new WorkersAIImageGenerator(failing("3030: NSFW content detected"), "m").generate("x")).rejects.toMatchObject({ refused: true });
    await expect(new WorkersAIImageGenerator(failing("3040: capacity"), "m").generate("x")).rejects.toMatchObject({ name: "ImageError", refused: false });
    const none: AiRunner = { run: async () => ({}) };
    await expect(new WorkersAIImageGenerator(none, "m").generate("x")).rejects.toThrow(/answered no image/);
    const empty: AiRunner = { run: async () => ({ image: "" }) };
    await expect(new WorkersAIImageGenerator(empty, "m").generate("x")).rejects.toMatchObject({ refused: true });
    const hanging: AiRunner = {
      run: (_model, _inputs, options) =>
        new Promise((_, reject) => (options?.signal as AbortSignal).addEventListener("abort", () => reject(new Error("aborted")))),
    };
    const slow = new WorkersAIImageGenerator(hanging, "m");
    slow.timeoutMs = 200;
    await expect(slow.generate("x")).rejects.toThrow(/no picture within 200 ms/);
  });

  it("reads the size of PNG, JPEG and WebP headers and refuses anything else", () => {
    expect(imageHeader(jpegHeader(640, 480), "t")).toEqual({ contentType: "image/jpeg", width: 640, height: 480 });
    expect(imageHeader(paintPng("x", 256), "t")).toEqual({ contentType: "image/png", width: 256, height: 256 });
    expect(() => imageHeader(new TextEncoder().encode("<svg></svg>"), "t")).toThrow(/not a PNG, JPEG or WebP/);
  });
});

describe("choice by configuration", () => {
  it("IMAGE_PROVIDER, else AI_PROVIDER; missing binding or base URL: offline", () => {
    const ai = { run: async () => ({}) };
    expect(imageProviderName({ IMAGE_PROVIDER: "workers-ai", AI: ai })).toBe("workers-ai");
    expect(imageProviderName({ IMAGE_PROVIDER: "workers-ai" })).toBe("offline");
    expect(imageProviderName({ AI_PROVIDER: "openai", OPENAI_BASE_URL: "http://127.0.0.1:1/v1" })).toBe("openai");
    expect(imageProviderName({ IMAGE_PROVIDER: "offline", AI_PROVIDER: "workers-ai", AI: ai })).toBe("offline");
    expect(imageProviderName({ IMAGE_PROVIDER: "nonsense" })).toBe("offline");
    expect(createImageGenerator({ IMAGE_PROVIDER: "openai", OPENAI_BASE_URL: "http://x/v1/", IMAGE_MODEL: "m" }).id).toBe("openai:http://x/v1:m");
    expect(createImageGenerator({ AI_PROVIDER: "workers-ai", AI: ai }).id).toBe("workers-ai:@cf/black-forest-labs/flux-1-schnell");
    expect(createImageGenerator({}).id).toBe("offline-painter-v1");
  });
});
