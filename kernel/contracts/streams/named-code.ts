/**
 * Code that configuration refers to by name. An installed package registers it with a line in
 * `META-INF/services/sluice.streams.NamedCode` naming an object (or a class) of one of the shapes below; a
 * configuration key that takes code (`default.key.serde`, `leveldb.config.setter`,
 * `sasl.oauthbearer.token.provider`) then accepts its name. Trusted configuration (file, environment, command line)
 * may also name a module as `module#export`; configuration that arrives over REST (a deploy request) names
 * registrations only, so that a request never decides which code runs inside Sluice.
 */
import { token } from "../token";
import type { Serde } from "./serde";
import type { LevelDbConfigSetter } from "./stores";

export const NAMED_CODE_CONTRACT = token<NamedCode>("sluice.streams.NamedCode");

/** A token, or the token with its expiry (epoch ms), as an OAUTHBEARER token provider answers. */
export type OAuthBearerTokenAnswer = string | { value: string; expiresAt?: number };

/** What each kind of registration implements. */
export interface NamedCodeImplementations {
  serde: Serde<any>;
  "leveldb.config.setter": LevelDbConfigSetter;
  "sasl.oauthbearer.token.provider": () => OAuthBearerTokenAnswer | Promise<OAuthBearerTokenAnswer>;
}

export type NamedCodeKind = keyof NamedCodeImplementations;
export const NAMED_CODE_KINDS: readonly NamedCodeKind[] = ["serde", "leveldb.config.setter", "sasl.oauthbearer.token.provider"];

interface Registration<K extends NamedCodeKind> {
  readonly kind: K;
  /** What configuration calls it: letters, digits and `.`, `_`, `-`; unique within its kind. */
  readonly name: string;
  readonly implementation: NamedCodeImplementations[K];
}

export type NamedSerde = Registration<"serde">;
export type NamedLevelDbConfigSetter = Registration<"leveldb.config.setter">;
export type NamedTokenProvider = Registration<"sasl.oauthbearer.token.provider">;
export type NamedCode = NamedSerde | NamedLevelDbConfigSetter | NamedTokenProvider;

/** The registrations of one process, by kind and name. */
export interface NamedCodeLookup {
  find<K extends NamedCodeKind>(kind: K, name: string): NamedCodeImplementations[K] | undefined;
  /** The registered names of a kind, sorted (for error messages). */
  names(kind: NamedCodeKind): string[];
}
