/**
 * A JavaScript number as a plain decimal (docs/api.md#metrics `/value`): the shortest digits that read back as the
 * same number — as `String(n)` picks them — but never in exponent notation: `0.0000001`, not `1e-7`;
 * `1000000000000000000000`, not `1e+21`. NaN and the infinities have no decimal form and keep their names.
 */
export function plainDecimal(value: number): string {
  const shortest = String(value);
  const exponentAt = shortest.indexOf("e");
  if (exponentAt < 0) return shortest;
  const sign = value < 0 ? "-" : "";
  const mantissa = shortest.slice(sign.length, exponentAt);
  const exponent = Number(shortest.slice(exponentAt + 1));
  const digits = mantissa.replace(".", "");
  // Where the decimal point falls in `digits`, counted from its start.
  const point = (mantissa.includes(".") ? mantissa.indexOf(".") : mantissa.length) + exponent;
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}
