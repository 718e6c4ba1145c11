/** Lag per partition from an offsets answer: recorded for the charts wherever offsets are read, and summed for the list. */
import type { Offsets } from "../api/sluice-types";
import { seriesOf } from "./time-series";

export const lagSeries = (applicationId: string) => seriesOf(`lag:${applicationId}`);

export function recordLag(applicationId: string, offsets: Offsets, at = Date.now()): void {
  const series = lagSeries(applicationId);
  for (const position of offsets.consumers.flatMap((consumer) => consumer.positions)) {
    if (position.lag >= 0) series.add(`${position.topic}-${position.partition}`, `${position.topic} [${position.partition}]`, at, position.lag);
  }
}

/** The sum of the known lags; undefined when no partition's lag is known. */
export function totalLag(offsets: Offsets): number | undefined {
  const lags = offsets.consumers.flatMap((consumer) => consumer.positions.map((position) => position.lag)).filter((lag) => lag >= 0);
  return lags.length === 0 ? undefined : lags.reduce((sum, lag) => sum + lag, 0);
}
