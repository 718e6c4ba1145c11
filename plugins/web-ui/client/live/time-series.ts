/**
 * Samples of live values over the last minutes, kept per scope (`lag:wordcount`, `metrics:wordcount`) for as long
 * as the page lives, so a chart opened after the list view already has the minutes that list sampled.
 */

export const WINDOW_MS = 5 * 60_000;

export interface Series {
  key: string;
  label: string;
  points: [at: number, value: number][];
}

export class TimeSeriesSet {
  private readonly series = new Map<string, Series>();

  add(key: string, label: string, at: number, value: number): void {
    let series = this.series.get(key);
    if (!series) {
      series = { key, label, points: [] };
      this.series.set(key, series);
    }
    series.points.push([at, value]);
    const oldest = at - WINDOW_MS;
    while (series.points.length > 0 && series.points[0][0] < oldest) series.points.shift();
  }

  /** The series with a point in the window ending `now`, those of `keys` only when given, in insertion order. */
  list(now: number, keys?: readonly string[]): Series[] {
    const oldest = now - WINDOW_MS;
    const chosen = keys ? keys.map((key) => this.series.get(key)).filter((series) => series !== undefined) : [...this.series.values()];
    return chosen
      .map((series) => ({ ...series, points: series.points.filter(([at]) => at >= oldest) }))
      .filter((series) => series.points.length > 0);
  }
}

const scopes = new Map<string, TimeSeriesSet>();

export function seriesOf(scope: string): TimeSeriesSet {
  let set = scopes.get(scope);
  if (!set) {
    set = new TimeSeriesSet();
    scopes.set(scope, set);
  }
  return set;
}
