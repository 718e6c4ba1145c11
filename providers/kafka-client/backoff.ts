/** The pause before retry number `attempt` (1 for the first): `firstMs`, doubled each time, at most `maxMs`. */
export function backoffMs(firstMs: number, attempt: number, maxMs: number): number {
  return Math.min(firstMs * 2 ** (attempt - 1), maxMs);
}
