/**
 * The running summary (decision 0007): when the history after the summary
 * no longer fits the prompt, its oldest part is folded into the summary by
 * the chat model. Runs after a reply is stored (ReplyRounds), never before
 * a reply's first token; the next reply reads it. One at a time.
 *
 * It is written by the model that wrote that reply (model-choice.ts): the
 * person's own connection when the conversation uses one — their story
 * never goes to the site's model behind their back — else the site's
 * (`seams.modelFactory`), as replies fall back; "fits" is measured against
 * that model's budget (the person's context size when they set one).
 *
 * The owner may also rewrite or reset it (`set_summary`, steering.ts):
 * a summary written meanwhile by the model is then thrown away.
 *
 * Units: SUMMARY_MAX_TOKENS is tokens (what the model is asked for),
 * MAX_SUMMARY_LENGTH characters (what is kept, schema/chat.ts). Rejects with what the model
 * throws (ChatModelError on a silence of `tokenTimeoutMs`); the caller logs.
 */
import { withTokenTimeout } from "../../ai/chat-models.ts";
import { MAX_SUMMARY_LENGTH } from "../../schema/chat.ts";
import { buildPrompt, summaryPrompt } from "../prompt.ts";
import type { ReplyCharacter } from "./d1-sync.ts";
import { type ReplyModel, withBudget } from "./model-choice.ts";
import { historyOf, type PromptInputs } from "./prompt-inputs.ts";
import type { RoomSeams } from "./seams.ts";
import type { RoomStore } from "./store.ts";

/** The newest messages a summary never takes: the scene at hand stays word for word. */
const SUMMARY_KEEP_MESSAGES = 4;
/** Longest summary the model is asked for, tokens. */
const SUMMARY_MAX_TOKENS = 400;

export class RoomSummary {
  /** A summary is being written (one at a time). */
  private summarizing = false;
  private readonly store: RoomStore;
  private readonly inputs: PromptInputs;
  private readonly seams: RoomSeams;

  constructor(store: RoomStore, inputs: PromptInputs, seams: RoomSeams) {
    this.store = store;
    this.inputs = inputs;
    this.seams = seams;
  }

  /**
   * When the history after the summary no longer fits the prompt, its
   * oldest part — every message that fell out and at least the older half,
   * never the latest SUMMARY_KEEP_MESSAGES — is summarised by the chat model
   * together with the summary so far, and the summary then covers it. A
   * delete or rewind meanwhile (the summary was reset) makes the result be
   * thrown away. `choice` is the model of the reply just stored: it writes
   * the summary, with the person's sampling (not their stop strings, which
   * are for replies), and its budget decides what fits.
   */
  async summarizeIfOverflowing(character: ReplyCharacter, choice: ReplyModel): Promise<void> {
    const store = this.store;
    if (store.deleted || !store.room || this.summarizing) return;
    // Hidden messages stay out of the summary as they stay out of prompts.
    const rows = store.rowsAfterSummary().filter((row) => !row.hidden);
    const options = withBudget(this.inputs.options(), choice.budget);
    const history = rows.map((row) => historyOf(row));
    const fitted = buildPrompt(character, history, options);
    const dropped = history.length - fitted.historyIncluded;
    if (dropped <= 0) return;
    const count = Math.min(Math.max(dropped, Math.ceil(history.length / 2)), Math.max(0, history.length - SUMMARY_KEEP_MESSAGES));
    if (count <= 0) return;
    const folded = rows.slice(0, count);
    const through = folded.at(-1)!.seq;
    const before = store.room.summary;
    const userName = store.room.user_name;
    this.summarizing = true;
    try {
      // In a room of several people each message is its author's (DESIGN.md "Shared rooms").
      const shared = store.people.isShared();
      const messages = folded.map((row) => ({
        isUser: row.role === "user",
        content: row.content,
        ...(shared && row.role === "user" && row.author_name ? { name: row.author_name } : {}),
      }));
      const prompt = summaryPrompt(character.name, userName, before, messages);
      const model = choice.model ? choice.model(character, userName) : this.seams.modelFactory(character, userName);
      const sampling = { ...choice.sampling, stop: undefined };
      const controller = new AbortController();
      let summary = "";
      for await (const piece of withTokenTimeout(
        model.stream(prompt, { maxTokens: Math.min(options.maxTokens, SUMMARY_MAX_TOKENS), purpose: "summary", sampling, signal: controller.signal }),
        this.seams.tokenTimeoutMs,
        () => controller.abort(),
      )) {
        summary += piece;
        if (summary.length >= MAX_SUMMARY_LENGTH) break;
      }
      summary = summary.trim().slice(0, MAX_SUMMARY_LENGTH);
      const room = store.room;
      if (!summary || store.deleted || !room || room.summary !== before || room.summary_through >= through) return;
      store.setSummary(summary, through);
    } finally {
      this.summarizing = false;
    }
  }
}
