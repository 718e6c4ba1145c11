/** Which keys hold secrets, and hiding their values in configuration views and log lines. */

/** What a secret's value is shown as. */
export const HIDDEN = "[hidden]";

/**
 * A key holds a secret when a word in it says so anywhere (`ssl.key.password`, `clientSecret`,
 * `x-sluice-peer-token`, `sasl.jaas.config`, `schema.registry.api.key`), or when it ends in the name of key material
 * or credentials (`ssl.keystore.key`, `ssl.truststore.certificates`, `basic.auth.user.info`). By name, not by a list
 * of keys, so that a key added later is hidden too; a key that is not a secret but looks like one is hidden all
 * the same, which costs less than the other way round.
 */
const SECRET_WORDS = /password|passwd|secret|token|credential|authorization|jaas|private[._-]?key|api[._-]?key/i;
const SECRET_ENDINGS = /[._-](key|certificates|user[._-]?info)$/i;

/** How deep nested fields are searched; deeper values are left as they are. */
const MAX_DEPTH = 8;

export function isSecretKey(key: string): boolean {
  return SECRET_WORDS.test(key) || SECRET_ENDINGS.test(key);
}

/**
 * `value` with every property whose key holds a secret replaced by HIDDEN, in nested plain objects and arrays too.
 * What holds no secret is returned as it is (no copy); what does is copied, never changed in place.
 */
export function redactSecrets<T>(value: T, depth = 0): T {
  if (value === null || typeof value !== "object" || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, index) => {
      const redacted = redactSecrets(item, depth + 1);
      if (redacted !== item) (copy ??= [...value])[index] = redacted;
    });
    return (copy ?? value) as T;
  }
  if (!isPlainObject(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const redacted = isSecretKey(key) ? HIDDEN : redactSecrets(item, depth + 1);
    if (redacted !== item) (copy ??= { ...value })[key] = redacted;
  }
  return (copy ?? value) as T;
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
