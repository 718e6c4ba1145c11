/**
 * Credentials kept out of configuration files, as Kafka's config providers do: a credential setting's value may be
 * `${env:NAME}` (the environment variable) or `${file:PATH}` (the file's content, without its final line break).
 * Errors name the setting and the variable or file, never a value.
 */
import fs from "node:fs";

const REFERENCE = /^\$\{(env|file):(.+)\}$/;

export function resolveSecret(key: string, value: string, env: NodeJS.ProcessEnv = process.env): string {
  const reference = REFERENCE.exec(value);
  if (!reference) return value;
  const [, provider, name] = reference;
  if (provider === "env") {
    const resolved = env[name];
    if (resolved === undefined) throw new Error(`${key}: environment variable ${name} is not set`);
    return resolved;
  }
  try {
    return fs.readFileSync(name, "utf8").replace(/\r?\n$/, "");
  } catch (error) {
    throw new Error(`${key}: cannot read '${name}': ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}
