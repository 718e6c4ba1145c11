/**
 * What the console sends in `Authorization` once someone has logged in, kept in the tab's sessionStorage so a
 * reload keeps the session and closing the tab ends it. Never shown, never put in a URL.
 */

export type AuthScheme = "basic" | "bearer";

export interface Credentials {
  scheme: AuthScheme;
  /** Who logged in, as the header bar shows it (the user name; "token" for a bearer token). */
  principal: string;
  authorization: string;
}

const STORAGE_KEY = "sluice-console-credentials";

export function basicCredentials(user: string, password: string): Credentials {
  const bytes = new TextEncoder().encode(`${user}:${password}`);
  const base64 = btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(""));
  return { scheme: "basic", principal: user, authorization: `Basic ${base64}` };
}

export function bearerCredentials(token: string): Credentials {
  return { scheme: "bearer", principal: "token", authorization: `Bearer ${token.trim()}` };
}

export function storedCredentials(): Credentials | undefined {
  try {
    const stored = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "null") as Credentials | null;
    return stored && typeof stored.authorization === "string" ? stored : undefined;
  } catch {
    return undefined;
  }
}

export function storeCredentials(credentials: Credentials | undefined): void {
  if (credentials) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(credentials));
  else sessionStorage.removeItem(STORAGE_KEY);
}

/**
 * The scheme a 401's `WWW-Authenticate` asks for. Sluice answers a script's request `SluiceBasic` instead of
 * `Basic`, so that the browser never opens its own login dialog; both mean user and password.
 */
export function schemeOfChallenge(challenge: string | undefined): AuthScheme | undefined {
  const scheme = challenge?.trim().split(/\s+/, 1)[0].toLowerCase();
  if (scheme === "basic" || scheme === "sluicebasic") return "basic";
  if (scheme === "bearer") return "bearer";
  return undefined;
}
