/**
 * Integer ids in paths (characters, comments). Anything but a positive
 * integer names nothing, so it is a 404 rather than a 400.
 */
import { notFound } from "./errors.ts";

export function parseIntegerId(raw: string, what: string): number {
  if (!/^[1-9]\d{0,15}$/.test(raw)) throw notFound(`${what} not found`);
  return Number(raw);
}

/** A character id from a path; throws 404 "Character not found" for anything else. */
export const parseCharacterId = (raw: string) => parseIntegerId(raw, "Character");

/** A comment id from a path; throws 404 "Comment not found" for anything else. */
export const parseCommentId = (raw: string) => parseIntegerId(raw, "Comment");
