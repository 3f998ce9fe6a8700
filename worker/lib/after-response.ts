/**
 * Work that may finish after the answer is sent (R2 clean-up, a room's
 * storage): `ctx.waitUntil` keeps the Worker alive for it.
 */

/**
 * Lets `work` finish after the response (waitUntil); awaits it instead when
 * there is no ExecutionContext (app.fetch called directly, as some tests do).
 */
export async function afterResponse(
  c: { readonly executionCtx: Pick<ExecutionContext, "waitUntil"> },
  work: Promise<unknown>,
): Promise<void> {
  let executionCtx: Pick<ExecutionContext, "waitUntil">;
  try {
    executionCtx = c.executionCtx;
  } catch {
    await work;
    return;
  }
  executionCtx.waitUntil(work);
}
