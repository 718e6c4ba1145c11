/**
 * The login form of a Sluice with authentication on: user and password for basic, a token for bearer. The
 * credentials are tried on GET /api/v1 before they are kept; a refusal shows Sluice's own message.
 */
import { useState } from "preact/hooks";
import type { ApiClient, ApiError } from "../api/api-client";
import { basicCredentials, bearerCredentials, type AuthScheme, type Credentials } from "../api/credentials";

interface LoginViewProps {
  api: ApiClient;
  scheme: AuthScheme | undefined;
  challenge: string | undefined;
  notice: string | undefined;
  onLoggedIn(credentials: Credentials): void;
}

export function LoginView({ api, scheme, challenge, notice, onLoggedIn }: LoginViewProps) {
  const [user, setUser] = useState("");
  const [secret, setSecret] = useState("");
  const [failure, setFailure] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const credentials = scheme === "basic" ? basicCredentials(user, secret) : bearerCredentials(secret);
    setBusy(true);
    setFailure(undefined);
    try {
      await api.request("GET", "/api/v1", undefined, credentials);
      onLoggedIn(credentials);
    } catch (error) {
      const { status, message } = error as ApiError;
      const refused = scheme === "basic" ? "Wrong user name or password" : "The token was refused";
      setFailure(status === 401 ? `${refused}: ${message}` : message);
      setBusy(false);
    }
  };

  return (
    <main class="login" id="main">
      <h1>Sluice console</h1>
      {notice && <p class="notice notice-warning" role="status">{notice}</p>}
      {scheme === undefined ? (
        <p class="notice notice-error" role="alert">
          This Sluice asks for credentials the console cannot send ({challenge ?? "no challenge"}). With client certificates,
          install yours in the browser and reload.
        </p>
      ) : (
        <form onSubmit={submit} aria-describedby="login-help">
          <p id="login-help">This Sluice requires you to log in ({scheme === "basic" ? "user and password" : "bearer token"}).</p>
          {scheme === "basic" && (
            <label>
              User
              <input name="user" autocomplete="username" required value={user} onInput={(event) => setUser(event.currentTarget.value)} />
            </label>
          )}
          <label>
            {scheme === "basic" ? "Password" : "Token"}
            <input
              name={scheme === "basic" ? "password" : "token"}
              type="password"
              autocomplete={scheme === "basic" ? "current-password" : "off"}
              required
              value={secret}
              onInput={(event) => setSecret(event.currentTarget.value)}
            />
          </label>
          {failure && (
            <p class="notice notice-error" role="alert">
              {failure}
            </p>
          )}
          <button type="submit" class="primary" disabled={busy}>
            {busy ? "Logging in…" : "Log in"}
          </button>
        </form>
      )}
    </main>
  );
}
