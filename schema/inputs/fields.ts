/**
 * Field builders the input schemas of schema/inputs/ share (not input
 * schemas themselves, so not re-exported by schema/inputs.ts): whole-number
 * and true/false query parameters, optional and required text with their
 * messages, upload paths and https URLs.
 */
import { z } from "zod";

/** A whole-number query parameter from `min` to `max`; `fallback` when absent or empty, else "{name} must be …" issues. */
export const intParam = (name: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === "") return fallback;
      if (!/^\d+$/.test(value)) {
        ctx.addIssue({ code: "custom", message: `${name} must be a whole number` });
        return z.NEVER;
      }
      const n = Number(value);
      if (n < min || n > max) {
        ctx.addIssue({ code: "custom", message: `${name} must be between ${min} and ${max}` });
        return z.NEVER;
      }
      return n;
    });

/** A query parameter that is "true" or "false" (a string; absent stays undefined). */
export const boolParam = (name: string) =>
  z
    .enum(["true", "false"], { error: `${name} must be "true" or "false"` })
    .optional();

/** Optional text of at most `max` characters (else `message`); null, undefined and blank text become null. */
export const optionalText = (max: number, message: string) =>
  z
    .string({ error: "Must be text" })
    .max(max, message)
    .nullish()
    .transform((v) => (v == null || v.trim() === "" ? null : v));

/** Required text: a missing value says the field's own minimum message. */
export const requiredText = (label: string, min: number, minMessage: string, max: number, maxMessage: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? minMessage : `${label} must be text`) })
    .trim()
    .min(min, minMessage)
    .max(max, maxMessage);

/** An `/objects/avatars/<ownerId>/<id>` upload path (the Worker checks the owner). */
export const OBJECT_PATH = /^\/objects\/avatars\/[\w-]+\/[\w-]+$/;
export const httpsUrlSchema = z.url({ protocol: /^https$/ });

/**
 * Avatar: an https URL, the `/objects/avatars/…` path that avatar registration
 * returns, or one of the demo catalog's `/avatars/demo/….svg` pictures.
 */
export const avatarUrlSchema = z
  .union([
    z.url({ protocol: /^https$/, error: "Must be a valid URL" }),
    z.string().regex(/^\/objects\/avatars\/[\w-]+\/[\w-]+$/, "Must be a valid URL"),
    // The demo catalog's artwork, served as static assets.
    z.string().regex(/^\/avatars\/demo\/[a-z0-9-]+\.svg$/, "Must be a valid URL"),
    z.literal(""),
  ], { error: "Must be a valid URL" })
  .nullish()
  .transform((v) => v || null);
