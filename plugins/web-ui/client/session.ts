/** What every view needs: the API client, what Sluice said about itself, who is logged in. */
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { ApiClient } from "./api/api-client";
import type { Credentials } from "./api/credentials";
import type { ApiRoot } from "./api/sluice-types";

export interface Session {
  api: ApiClient;
  server: ApiRoot;
  credentials: Credentials | undefined;
  logOut(): void;
}

export const SessionContext = createContext<Session | undefined>(undefined);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession outside the console's session");
  return session;
}

/** `/api/v1/streams/{id}` and the paths under it, the id encoded. */
export const streamsPath = (id: string, rest = "") => `/api/v1/streams/${encodeURIComponent(id)}${rest}`;
export const applicationsPath = (id: string, rest = "") => `/api/v1/applications/${encodeURIComponent(id)}${rest}`;
