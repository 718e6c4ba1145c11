/** Waiting for a condition with a deadline: the only way tests wait. */

export interface EventuallyOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** Named in the error when the deadline passes. */
  what?: string;
}

/**
 * Calls `probe` until it returns a value other than undefined/false (or stops throwing), and returns it.
 * Rejects with the last error or a timeout error naming `what` once `timeoutMs` has passed.
 */
export async function eventually<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  { timeoutMs = 10_000, intervalMs = 20, what = "condition" }: EventuallyOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const cause = lastError instanceof Error ? `: ${lastError.message}` : "";
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
