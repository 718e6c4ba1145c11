/** The SASL mechanisms Sluice's client and broker speak, by the names SaslHandshake carries. */
export const SASL_MECHANISMS = ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"] as const;

export type SaslMechanism = (typeof SASL_MECHANISMS)[number];

export const isSaslMechanism = (name: string): name is SaslMechanism => (SASL_MECHANISMS as readonly string[]).includes(name);
