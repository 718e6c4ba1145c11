/**
 * Waits for every promise to settle, then throws the first failure, if any, or gives their values in order; unlike
 * Promise.all, nothing is left running unseen when one fails (a task's database opening or committing).
 */
export async function settledAll<T>(promises: readonly Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((result): result is PromiseRejectedResult => result.status === "rejected");
  if (failed !== undefined) throw failed.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<T>).value);
}
