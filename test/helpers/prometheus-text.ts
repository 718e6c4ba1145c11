/** Reading samples out of a Prometheus text exposition, for tests of /metrics. */

/** Every sample of `name` whose labels include `labels`, as [its label text, its value]. */
export function samples(text: string, name: string, labels: Record<string, string> = {}): [string, number][] {
  const wanted = Object.entries(labels).map(([label, value]) => `${label}="${value}"`);
  const found: [string, number][] = [];
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const labelText = match[2] ?? "";
    const present: string[] = labelText.match(/[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*"/g) ?? [];
    if (wanted.every((label) => present.includes(label))) found.push([labelText, Number(match[3])]);
  }
  return found;
}

/** The value of the one sample of `name` with `labels`; undefined when there is none. */
export function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples(text, name, labels);
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}: ${found.map(([labelText]) => labelText).join("; ")}`);
  return found[0]?.[1];
}
