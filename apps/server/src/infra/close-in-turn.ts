/** One part a process closes at shutdown, named for the log. */
export type ClosingPart = readonly [name: string, close: () => Promise<unknown>];

/**
 * Closes the parts one after the other, each even when one before it failed, and logs a failure with
 * the part's name. Resolves true when every part closed. Awaiting them in a row with a bare `await`
 * would stop at the first failure: the database (the last part) would stay open and the failure would
 * surface as an unhandled rejection with no word of what failed (main.ts's shutdown).
 */
export async function closeInTurn(
  parts: readonly ClosingPart[],
  logger: { error(fields: { err: unknown }, message: string): void },
): Promise<boolean> {
  let closed = true;
  for (const [name, close] of parts) {
    try {
      await close();
    } catch (error) {
      closed = false;
      logger.error({ err: error }, `closing the ${name} failed`);
    }
  }
  return closed;
}
