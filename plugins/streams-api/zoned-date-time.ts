/**
 * Epoch milliseconds as Java's ISO_ZONED_DATE_TIME prints them (docs/api.md#conventions): seconds always present, the
 * fraction only when not zero and without trailing zeros, the offset as `Z` or `±HH:MM`, then the zone id
 * in brackets — `2026-11-22T19:47:43.123+01:00[Europe/Paris]`, `2026-11-22T18:47:43.123Z[UTC]`.
 */

const partFormats = new Map<string, Intl.DateTimeFormat>();

// Resolved once: building a DateTimeFormat costs far more than a whole request.
const PROCESS_TIME_ZONE = resolveProcessTimeZone();

/** The process's time zone id: TZ as given when it names a zone (as Java's default zone does), else Intl's. */
export function processTimeZone(): string {
  return PROCESS_TIME_ZONE;
}

function resolveProcessTimeZone(): string {
  const fromEnvironment = process.env.TZ;
  if (fromEnvironment) {
    try {
      // ICU resolves some ids to older aliases (Asia/Kathmandu → Asia/Katmandu); the id as configured is kept.
      new Intl.DateTimeFormat("en-US", { timeZone: fromEnvironment });
      return fromEnvironment;
    } catch {
      // Not a zone id (e.g. a POSIX rule): Intl's interpretation below.
    }
  }
  return Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC";
}

export function formatZonedDateTime(epochMs: number, timeZone: string = processTimeZone()): string {
  const millis = ((epochMs % 1000) + 1000) % 1000;
  const wholeSecond = epochMs - millis;
  const local = localFields(wholeSecond, timeZone);
  const offsetMinutes = Math.round((Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second) - wholeSecond) / 60_000);
  const date = `${pad(local.year, 4)}-${pad(local.month, 2)}-${pad(local.day, 2)}`;
  const time = `${pad(local.hour, 2)}:${pad(local.minute, 2)}:${pad(local.second, 2)}${fraction(millis)}`;
  return `${date}T${time}${offset(offsetMinutes)}[${timeZone}]`;
}

interface LocalFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function localFields(epochMs: number, timeZone: string): LocalFields {
  if (timeZone === PROCESS_TIME_ZONE) {
    // Date's local getters use the same zone as Intl's default and are much cheaper than formatToParts.
    const date = new Date(epochMs);
    return { year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate(), hour: date.getHours(), minute: date.getMinutes(), second: date.getSeconds() };
  }
  let format = partFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    partFormats.set(timeZone, format);
  }
  const fields: Record<string, number> = {};
  for (const part of format.formatToParts(epochMs)) {
    if (part.type !== "literal") fields[part.type] = Number(part.value);
  }
  return { year: fields.year, month: fields.month, day: fields.day, hour: fields.hour, minute: fields.minute, second: fields.second };
}

function fraction(millis: number): string {
  if (millis === 0) return "";
  return `.${pad(millis, 3).replace(/0+$/, "")}`;
}

function offset(minutes: number): string {
  if (minutes === 0) return "Z";
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60), 2)}:${pad(abs % 60, 2)}`;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, "0");
}
