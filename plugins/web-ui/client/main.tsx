/** The console's entry point: connects to Sluice (logging in when it asks), then shows the page the URL names. */
import { render } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { ApiClient, type ApiError } from "./api/api-client";
import { schemeOfChallenge, storeCredentials, storedCredentials, type AuthScheme, type Credentials } from "./api/credentials";
import type { ApiRoot } from "./api/sluice-types";
import { SessionContext } from "./session";
import { ConsoleShell } from "./views/console-shell";
import { LoginView } from "./views/login-view";

const RECONNECT_MS = 5000;

type Phase =
  | { kind: "connecting" }
  | { kind: "login"; scheme: AuthScheme | undefined; challenge: string | undefined; notice?: string }
  | { kind: "ready"; server: ApiRoot; credentials: Credentials | undefined }
  | { kind: "unreachable"; error: ApiError };

function Console() {
  const [phase, setPhase] = useState<Phase>({ kind: "connecting" });
  const api = useMemo(
    () =>
      new ApiClient((error) => {
        const refused = api.loggedIn !== undefined;
        storeCredentials(undefined);
        api.setCredentials(undefined);
        setPhase({ kind: "login", scheme: schemeOfChallenge(error.challenge), challenge: error.challenge, notice: refused ? `Your credentials were refused (${error.message}). Log in again.` : undefined });
      }),
    [],
  );
  const connect = async () => {
    api.setCredentials(storedCredentials());
    try {
      const server = await api.get<ApiRoot>("/api/v1");
      setPhase({ kind: "ready", server, credentials: api.loggedIn });
    } catch (error) {
      if ((error as ApiError).status !== 401) setPhase({ kind: "unreachable", error: error as ApiError });
    }
  };
  useEffect(() => void connect(), []);
  useEffect(() => {
    if (phase.kind !== "unreachable") return;
    const timer = setTimeout(() => void connect(), RECONNECT_MS);
    return () => clearTimeout(timer);
  }, [phase]);

  switch (phase.kind) {
    case "connecting":
      return <p class="splash" role="status">Connecting to Sluice…</p>;
    case "unreachable":
      return (
        <main class="splash">
          <h1>Sluice does not answer</h1>
          <p role="alert">{phase.error.message}</p>
          <p>The console tries again every {RECONNECT_MS / 1000} seconds.</p>
        </main>
      );
    case "login":
      return (
        <LoginView
          api={api}
          scheme={phase.scheme}
          challenge={phase.challenge}
          notice={phase.notice}
          onLoggedIn={(credentials) => {
            storeCredentials(credentials);
            void connect();
          }}
        />
      );
    case "ready": {
      const logOut = () => {
        storeCredentials(undefined);
        setPhase({ kind: "connecting" });
        void connect();
      };
      return (
        <SessionContext.Provider value={{ api, server: phase.server, credentials: phase.credentials, logOut }}>
          <ConsoleShell />
        </SessionContext.Provider>
      );
    }
  }
}

render(<Console />, document.getElementById("console")!);
