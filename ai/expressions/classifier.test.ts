/**
 * The ExpressionClassifier as the room uses it: one of the speaker's own
 * labels (a creator's names read through their synonyms, an emotion it has
 * no label for through its Ekman group), the face the reply ends on,
 * `neutral` when nothing shows, null without labels; the model classifier
 * falls back to the lexicon when the model answers nonsense.
 */
import { describe, expect, it } from "vitest";
import { createExpressionClassifier, LexiconExpressionClassifier, ModelExpressionClassifier } from "./classifier.ts";
import { SILLYTAVERN_LABELS } from "./lexicon.ts";

const lexicon = new LexiconExpressionClassifier();

describe("the lexicon classifier", () => {
  it.each([
    ["*She laughs so hard she snorts.* That's hilarious!", "amusement"],
    ["*Tears roll down her cheeks as she sobs quietly.* I miss him so much.", "sadness"],
    ["How dare you! *She slams her fist on the table, furious.*", "anger"],
    ["*His eyes go wide and he gasps.* No way! Really?", "surprise"],
    ["Thank you, truly. I'm so grateful for everything you did.", "gratitude"],
    ["*She blushes and looks away, flustered.* I-I didn't mean it like that…", "embarrassment"],
    ["The train leaves at nine. Platform four.", "neutral"],
  ])("%s → %s over SillyTavern's 28 labels", async (reply, label) => {
    expect(await lexicon.classify(reply, SILLYTAVERN_LABELS)).toBe(label);
  });

  it("answers with the creator's own labels, read through their synonyms", async () => {
    expect(await lexicon.classify("*She smiles brightly.* What a lovely day!", ["Happy", "Angry", "Default"])).toBe("Happy");
    expect(await lexicon.classify("The train leaves at nine. Platform four.", ["Happy", "Angry", "Default"])).toBe("Default");
  });

  it("a speaker without the reply's emotion shows the label of its Ekman group (GoEmotions' mapping)", async () => {
    const ekman = ["anger", "disgust", "fear", "joy", "sadness", "surprise", "neutral"];
    expect(await lexicon.classify("Ugh, fine. Whatever. *She rolls her eyes.*", ekman)).toBe("anger");
    expect(await lexicon.classify("*He giggles.* Haha, that's hilarious!", ["Happy", "Sad", "Default"])).toBe("Happy");
    expect(await lexicon.classify("*She wrings her hands, fidgeting.* I'm so nervous...", ekman)).toBe("fear");
    // The speaker's own label for the emotion wins over a folded one.
    expect(await lexicon.classify("Ugh, fine. Whatever.", ["anger", "annoyance"])).toBe("annoyance");
  });

  it("the face the reply ends on wins", async () => {
    expect(await lexicon.classify("*She was crying earlier.* But then... *she bursts out laughing.* Haha, you fool! That's hilarious!", ["sadness", "amusement"])).toBe("amusement");
  });

  it("null without labels; the first label when there is no neutral and nothing shows", async () => {
    expect(await lexicon.classify("*laughs*", [])).toBeNull();
    expect(await lexicon.classify("The train leaves at nine.", ["smug", "pout"])).toBe("smug");
  });
});

describe("the model classifier", () => {
  it("takes the model's label, else the lexicon's", async () => {
    const answering = (text: string) => new ModelExpressionClassifier(async () => text);
    expect(await answering(" Sadness.").classify("*laughs* haha", ["joy", "sadness"])).toBe("sadness");
    expect(await answering("I cannot say").classify("*laughs* haha, so funny", ["amusement", "sadness"])).toBe("amusement");
    const failing = new ModelExpressionClassifier(async () => {
      throw new Error("model down");
    });
    expect(await failing.classify("*She sobs.* I'm so sad.", ["joy", "sadness"])).toBe("sadness");
  });

  it("is chosen by EXPRESSION_CLASSIFIER=model when a model is at hand", () => {
    expect(createExpressionClassifier("model", async () => "joy")).toBeInstanceOf(ModelExpressionClassifier);
    expect(createExpressionClassifier("model")).toBeInstanceOf(LexiconExpressionClassifier);
    expect(createExpressionClassifier(undefined)).toBeInstanceOf(LexiconExpressionClassifier);
  });
});
