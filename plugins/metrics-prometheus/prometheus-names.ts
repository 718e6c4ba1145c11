/**
 * Metric and label names of the Prometheus text format. Names follow docs/api.md#metrics (`streams_` + the metric name
 * with every character outside [a-zA-Z0-9_] turned into `_`), with two changes that `promtool check metrics`
 * demands: an abbreviated or non-base unit word becomes the base unit (`start-time-ms` →
 * `streams_start_time_seconds`, the value scaled to match), and a name ending in a suffix reserved for
 * histograms and summaries (`_count`, `_sum`, `_bucket`) gets `_value` appended.
 */

const FAMILY_PREFIX = "streams_";

/** Unit words → base unit; `per` is how many of the word's unit make one base unit (so values are divided). */
const UNIT_WORDS: Record<string, { unit: string; per: number }> = {
  ns: { unit: "seconds", per: 1e9 },
  nanoseconds: { unit: "seconds", per: 1e9 },
  us: { unit: "seconds", per: 1e6 },
  microseconds: { unit: "seconds", per: 1e6 },
  ms: { unit: "seconds", per: 1e3 },
  milliseconds: { unit: "seconds", per: 1e3 },
  s: { unit: "seconds", per: 1 },
  sec: { unit: "seconds", per: 1 },
  m: { unit: "seconds", per: 1 / 60 },
  minutes: { unit: "seconds", per: 1 / 60 },
  h: { unit: "seconds", per: 1 / 3600 },
  hours: { unit: "seconds", per: 1 / 3600 },
  d: { unit: "seconds", per: 1 / 86_400 },
  days: { unit: "seconds", per: 1 / 86_400 },
  b: { unit: "bytes", per: 1 },
  kb: { unit: "bytes", per: 1 / 1024 },
  mb: { unit: "bytes", per: 1 / 1024 ** 2 },
  gb: { unit: "bytes", per: 1 / 1024 ** 3 },
};

const RESERVED_SUFFIXES = ["_count", "_sum", "_bucket"];

export interface FamilyName {
  name: string;
  /** The metric's value divided by this is in the family's unit. */
  per: number;
  /** The base unit the name was converted to, if any. */
  unit?: string;
}

export function sanitizeName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_]/g, "_");
}

export function familyName(metricName: string): FamilyName {
  let per = 1;
  let baseUnit: string | undefined;
  const words = sanitizeName(metricName)
    .split("_")
    .map((word) => {
      const unit = UNIT_WORDS[word.toLowerCase()];
      if (!unit) return word;
      per *= unit.per;
      baseUnit = unit.unit;
      return unit.unit;
    });
  let name = FAMILY_PREFIX + words.join("_");
  if (RESERVED_SUFFIXES.some((suffix) => name.endsWith(suffix))) name += "_value";
  return { name, per, unit: baseUnit };
}

/** A label name: sanitized, and never starting with a digit. */
export function labelName(tag: string): string {
  const sanitized = sanitizeName(tag);
  return /^[0-9]/.test(sanitized) ? `_${sanitized}` : sanitized;
}

export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

export function escapeHelp(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
}
