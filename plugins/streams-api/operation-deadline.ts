/** Bounds a restart or stop by server.operation.timeout.ms without leaving a timer behind. */

export const TIMED_OUT = Symbol("timed out");

/** The work's result, or TIMED_OUT once `timeoutMs` passed first (the work goes on; its failure is then ignored). */
export async function withinDeadline<T>(work: Promise<T>, timeoutMs: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs);
  });
  work.catch(() => undefined);
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
