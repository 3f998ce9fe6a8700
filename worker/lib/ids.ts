/**
 * Integer ids in paths (characters, comments). Anything but a positive
 * integer names nothing, so it is a 404 rather than a 400.
 */
import { notFound } from "./errors.ts";

export function parseIntegerId(raw: string, what: string): number {
  if (!/^[1-9]\d{0,15}$/.test(raw)) throw notFound(`${what} not found`);
  return Number(raw);
}
