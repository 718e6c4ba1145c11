/** How numbers and times read in the console. */

const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

export function formatNumber(value: number): string {
  return Number.isInteger(value) ? integer.format(value) : decimal.format(value);
}

/** Sluice's times read `2026-11-22T18:47:43.123Z[UTC]`: ISO-8601 with the zone id in brackets. */
export function parseSluiceTime(text: string): Date {
  return new Date(text.replace(/\[[^\]]*\]$/, ""));
}

export function formatAge(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

export function formatTimestamp(ms: number): string {
  return new Date(ms).toLocaleString();
}

/** A record's key or value as one line: strings as they are, anything else as JSON. */
export function formatValue(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** "1 store", "3 stores". */
export function counted(count: number, noun: string, plural = `${noun}s`): string {
  return `${formatNumber(count)} ${count === 1 ? noun : plural}`;
}
