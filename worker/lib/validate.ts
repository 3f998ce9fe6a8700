/**
 * `@hono/zod-validator` with our error shape: a failed check throws a 400
 * `validation_failed` ApiError instead of answering with zod's own body.
 */
import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodType } from "zod";
import { validationFailed } from "./errors.ts";

export const validate = <Target extends keyof ValidationTargets, Schema extends ZodType>(
  target: Target,
  schema: Schema,
) =>
  zValidator(target, schema, (result) => {
    if (!result.success) throw validationFailed(result.error);
  });
