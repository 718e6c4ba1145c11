/** A bench's numeric `--name=value` argument, or `fallback` when it is not given. */
export function numberArgument(name: string, fallback: number): number {
  const prefix = `--${name}=`;
  const given = process.argv.find((arg) => arg.startsWith(prefix));
  return given ? Number(given.slice(prefix.length)) : fallback;
}
