/**
 * A live line chart of the series' last minutes, drawn in SVG (no chart library: a few lines of geometry cost
 * less than one). Time runs right to now; each render places the points by their age, so the lines move.
 */
import type { Series } from "../live/time-series";
import { WINDOW_MS } from "../live/time-series";
import { formatNumber } from "./formatting";

const WIDTH = 640;
const HEIGHT = 200;
const PAD = { left: 56, right: 12, top: 12, bottom: 26 };
const PLOT_WIDTH = WIDTH - PAD.left - PAD.right;
const PLOT_HEIGHT = HEIGHT - PAD.top - PAD.bottom;
const PALETTE_SIZE = 8;

interface LineChartProps {
  title: string;
  series: Series[];
  now: number;
  /** Shown when no series has a point yet. */
  empty: string;
}

export function LineChart({ title, series, now, empty }: LineChartProps) {
  const values = series.flatMap((one) => one.points.map(([, value]) => value));
  const top = niceCeiling(Math.max(0, ...values));
  const bottom = Math.min(0, ...values);
  const x = (at: number) => PAD.left + (1 - (now - at) / WINDOW_MS) * PLOT_WIDTH;
  const y = (value: number) => PAD.top + (1 - (value - bottom) / (top - bottom || 1)) * PLOT_HEIGHT;
  const latest = series.map((one) => `${one.label}: ${formatNumber(one.points[one.points.length - 1][1])}`);
  const summary = series.length === 0 ? `${title}: ${empty}` : `${title} over the last ${WINDOW_MS / 60_000} minutes; latest ${latest.join(", ")}`;
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={summary} data-series={series.length} data-points={values.length}>
        {[bottom, (bottom + top) / 2, top].map((tick) => (
          <g key={tick} class="grid">
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} />
            <text x={PAD.left - 6} y={y(tick) + 4} text-anchor="end">
              {formatNumber(tick)}
            </text>
          </g>
        ))}
        {[5, 4, 3, 2, 1, 0].map((minutes) => (
          <text key={minutes} class="axis" x={x(now - minutes * 60_000)} y={HEIGHT - 6} text-anchor="middle">
            {minutes === 0 ? "now" : `−${minutes} min`}
          </text>
        ))}
        {series.map((one, index) =>
          one.points.length === 1 ? (
            <circle key={one.key} class={`series series-${index % PALETTE_SIZE}`} cx={x(one.points[0][0])} cy={y(one.points[0][1])} r={3} />
          ) : (
            <path key={one.key} class={`series series-${index % PALETTE_SIZE}`} d={one.points.map(([at, value], i) => `${i === 0 ? "M" : "L"}${x(at).toFixed(1)},${y(value).toFixed(1)}`).join("")} />
          ),
        )}
      </svg>
      {series.length === 0 ? (
        <p class="muted">{empty}</p>
      ) : (
        <ul class="legend">
          {series.map((one, index) => (
            <li key={one.key}>
              <span class={`swatch series-${index % PALETTE_SIZE}`} aria-hidden="true" />
              {latest[index]}
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}

/** 1, 2 or 5 times a power of ten, at least `value` (and at least 1, so a flat zero line sits at the bottom). */
function niceCeiling(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((factor) => factor * power >= value)!;
  return step * power;
}
