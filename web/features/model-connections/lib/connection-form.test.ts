/**
 * The connection form's values to the body it sends: numbers typed as text
 * become numbers, empty settings are left out, stop strings are one per line
 * (`\n` typed as a line break), the saved key is kept unless a new one is
 * typed, and the shared schema's messages land under their fields.
 */
import { describe, expect, it } from "vitest";
import type { ModelConnection } from "../../../../schema/model-connections.ts";
import { connectionFormValues, issuesToConnectionErrors, placeTestFailure, validateConnectionForm } from "./connection-form.ts";

const saved: ModelConnection = {
  id: "3f0c8a52-4a54-4b8a-9c55-0f7c1f7c1a11",
  name: "My Ollama",
  kind: "openai",
  baseUrl: "http://127.0.0.1:11434/v1",
  model: "llama3.1:8b",
  embeddingModel: "nomic-embed-text",
  imageModel: "gpt-image-1",
  keyHint: "abcd",
  settings: { temperature: 0.8, stop: ["\nUser:"] },
  isDefault: true,
};

describe("connection form", () => {
  it("starts from a saved connection without its key, settings as text", () => {
    const values = connectionFormValues(saved, false);
    expect(values.apiKey).toBe("");
    expect(values.embeddingModel).toBe("nomic-embed-text");
    expect(values.imageModel).toBe("gpt-image-1");
    expect(connectionFormValues(null, true).imageModel).toBe("");
    expect(values.settings).toEqual({ temperature: "0.8", topP: "", maxTokens: "", contextTokens: "", frequencyPenalty: "", stop: "\nUser:" });
  });

  it("sends numbers and stop strings, and keeps the saved key when none is typed", () => {
    const values = connectionFormValues(saved, false);
    values.settings.maxTokens = "300";
    values.settings.stop = "\\nUser:\nEND";
    const { data } = validateConnectionForm(values, true);
    expect(data).toEqual({
      name: "My Ollama",
      kind: "openai",
      baseUrl: "http://127.0.0.1:11434/v1",
      model: "llama3.1:8b",
      embeddingModel: "nomic-embed-text",
      imageModel: "gpt-image-1",
      settings: { temperature: 0.8, maxTokens: 300, stop: ["\nUser:", "END"] },
      isDefault: true,
    });
    expect(data).not.toHaveProperty("apiKey");
    expect(validateConnectionForm({ ...values, apiKey: "sk-new" }, true).data).toMatchObject({ apiKey: "sk-new" });
    // An empty embedding model is none: the site's memory.
    expect(validateConnectionForm({ ...values, embeddingModel: "  " }, true).data).toMatchObject({ embeddingModel: null });
    // Likewise an empty image model: pictures come from the site's generator.
    expect(validateConnectionForm({ ...values, imageModel: "  " }, true).data).toMatchObject({ imageModel: null });
  });

  it("a site connection sends no URL and no key", () => {
    const { data } = validateConnectionForm({ ...connectionFormValues(null, true), name: "Site", kind: "site", model: "offline", baseUrl: "x", apiKey: "y" }, false);
    expect(data).toEqual({ name: "Site", kind: "site", model: "offline", settings: {}, isDefault: true });
  });

  it("puts the schema's messages under their fields", () => {
    const values = { ...connectionFormValues(null, false), name: "X", model: "m", baseUrl: "" };
    values.settings.temperature = "3";
    values.settings.maxTokens = "many";
    expect(validateConnectionForm(values, false).errors).toEqual({
      temperature: "Temperature must be between 0 and 2",
      maxTokens: "Max reply tokens must be a number",
    });
    // The base URL's rule, which spans two fields, speaks once the fields themselves are right.
    expect(validateConnectionForm({ ...connectionFormValues(null, false), name: "X", model: "m" }, false).errors).toEqual({
      baseUrl: "Base URL is required for an OpenAI-compatible endpoint",
    });
    expect(
      issuesToConnectionErrors([
        { path: "settings.stop", message: "At most 8 stop strings" },
        { path: "baseUrl", message: "nope" },
        { path: "imageModel", message: "Image model can be at most 200 characters" },
      ]),
    ).toEqual({
      stop: "At most 8 stop strings",
      baseUrl: "nope",
      imageModel: "Image model can be at most 200 characters",
    });
  });
});

describe("placeTestFailure", () => {
  it("puts a refused or unreadable key by the key field, the rest by the base URL, without sending the person where they are", () => {
    expect(placeTestFailure("Your model endpoint answered 401 — check the key in Settings → Models.")).toEqual({
      field: "apiKey",
      text: "Your model endpoint answered 401 — check the key.",
    });
    expect(placeTestFailure("Your model's API key could not be read — enter it again in Settings → Models.").field).toBe("apiKey");
    expect(placeTestFailure("Your model endpoint answered 404 — check the base URL and the model in Settings → Models.")).toEqual({
      field: "baseUrl",
      text: "Your model endpoint answered 404 — check the base URL and the model.",
    });
    expect(placeTestFailure("Fabled could not reach your model endpoint — is it running, and is the base URL right?").field).toBe("baseUrl");
  });
});
