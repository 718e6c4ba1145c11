/**
 * The broker's users as SCRAM keeps them (RFC 5802 §3): a random salt, 4096 PBKDF2 iterations, StoredKey and
 * ServerKey per hash function; the passwords are dropped once derived. PLAIN passwords are checked by deriving the
 * StoredKey again and comparing in constant time. An unknown user gets a decoy credential (a stable salt, keys
 * nobody knows), so that neither the answers nor their timing tell which users exist.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { clientKeyOf, hash, saltedPassword, scramCredential, SCRAM_MIN_ITERATIONS, scramKeyBytes, type ScramCredential, type ScramMechanism } from "../../kafka-protocol/sasl/scram";

export interface SaslUser {
  readonly name: string;
  readonly password: string;
}

const SALT_BYTES = 32;
/** PLAIN checks its passwords against the SCRAM-SHA-256 keys. */
const PLAIN_KEYS: ScramMechanism = "SCRAM-SHA-256";

export class SaslCredentials {
  private readonly decoySecret = randomBytes(32);

  private constructor(private readonly byMechanism: ReadonlyMap<ScramMechanism, ReadonlyMap<string, ScramCredential>>) {}

  /** Derives the keys of every user for each of `mechanisms` (and for PLAIN's check when `plain`). */
  static async derive(users: readonly SaslUser[], mechanisms: readonly ScramMechanism[], plain: boolean): Promise<SaslCredentials> {
    const wanted = new Set<ScramMechanism>(mechanisms);
    if (plain) wanted.add(PLAIN_KEYS);
    const byMechanism = new Map<ScramMechanism, Map<string, ScramCredential>>();
    for (const mechanism of wanted) {
      const credentials = await Promise.all(users.map(async (user) => [user.name, await scramCredential(mechanism, user.password, randomBytes(SALT_BYTES), SCRAM_MIN_ITERATIONS)] as const));
      byMechanism.set(mechanism, new Map(credentials));
    }
    return new SaslCredentials(byMechanism);
  }

  /** The user's credential, or a decoy no proof matches. */
  scram(mechanism: ScramMechanism, name: string): ScramCredential {
    return this.byMechanism.get(mechanism)?.get(name) ?? this.decoy(mechanism, name);
  }

  async checkPassword(name: string, password: string): Promise<boolean> {
    const known = this.byMechanism.get(PLAIN_KEYS)?.has(name) === true;
    const credential = this.scram(PLAIN_KEYS, name);
    const salted = await saltedPassword(PLAIN_KEYS, password, credential.salt, credential.iterations);
    return timingSafeEqual(hash(PLAIN_KEYS, clientKeyOf(PLAIN_KEYS, salted)), credential.storedKey) && known;
  }

  private decoy(mechanism: ScramMechanism, name: string): ScramCredential {
    const derived = (purpose: string, bytes: number) => createHmac("sha512", this.decoySecret).update(`${purpose}\0${mechanism}\0${name}`).digest().subarray(0, bytes);
    const keyBytes = scramKeyBytes(mechanism);
    return { salt: derived("salt", SALT_BYTES), iterations: SCRAM_MIN_ITERATIONS, storedKey: derived("stored", keyBytes), serverKey: derived("server", keyBytes) };
  }
}
