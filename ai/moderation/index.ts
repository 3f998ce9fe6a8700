/**
 * Moderation (DESIGN.md "Moderation"), one file per layer: the `Moderator`
 * interface and its vocabulary (moderator.ts), the three providers
 * (llama-guard.ts, openai-moderations.ts, offline-screen.ts), the pre-screen
 * in front of every one of them (pre-screen.ts, reading the views of
 * normalise.ts) and the choice by configuration (choose.ts). Importers take
 * what they need from here.
 */
export * from "./moderator.ts";
export * from "./llama-guard.ts";
export * from "./openai-moderations.ts";
export * from "./offline-screen.ts";
export * from "./normalise.ts";
export * from "./pre-screen.ts";
export * from "./choose.ts";
