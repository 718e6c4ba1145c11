/** Who made a request and what they may do: the roles, in order, each allowing what the one before it allows. */
export const ROLES = ["viewer", "operator", "admin"] as const;
export type Role = (typeof ROLES)[number];

export interface Principal {
  /** The user name, the token's subject, the certificate's CN, `peer` or `anonymous`. */
  readonly name: string;
  readonly role: Role;
  /** How it was authenticated: none, basic, bearer, mtls, or peer (another instance's credential). */
  readonly mechanism: string;
}

/** With `server.auth.mechanism=none` every request is this principal. */
export const ANONYMOUS: Principal = Object.freeze({ name: "anonymous", role: "admin", mechanism: "none" });

export const isRole = (value: unknown): value is Role => ROLES.includes(value as Role);

export const roleAllows = (held: Role, needed: Role): boolean => ROLES.indexOf(held) >= ROLES.indexOf(needed);

/** The strongest of the names that are roles; undefined when none is. */
export function strongestRole(names: readonly unknown[]): Role | undefined {
  let strongest: Role | undefined;
  for (const name of names) if (isRole(name) && (strongest === undefined || roleAllows(name, strongest))) strongest = name;
  return strongest;
}
