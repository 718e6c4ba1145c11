/**
 * Every request the console makes: same origin, JSON, the logged-in credentials in `Authorization` and
 * `X-Requested-With` (so a 401 carries a challenge no browser answers with its login dialog). A failed request
 * becomes an ApiError carrying the `message` of Sluice's JSON error body; a 401 also tells the console to log in.
 */
import type { Credentials } from "./credentials";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** `WWW-Authenticate` of a 401. */
    readonly challenge?: string,
  ) {
    super(message);
  }
}

export class ApiClient {
  private credentials: Credentials | undefined;

  constructor(private readonly onUnauthorized: (error: ApiError) => void) {}

  setCredentials(credentials: Credentials | undefined): void {
    this.credentials = credentials;
  }

  get loggedIn(): Credentials | undefined {
    return this.credentials;
  }

  headers(accept = "application/json"): Record<string, string> {
    const headers: Record<string, string> = { Accept: accept, "X-Requested-With": "XMLHttpRequest" };
    if (this.credentials) headers.Authorization = this.credentials.authorization;
    return headers;
  }

  get<T>(path: string): Promise<T> {
    return this.request<T>("GET", path);
  }

  /**
   * `credentials` instead of the logged-in ones: a login attempt. `answerStatuses`: error statuses whose body is
   * the answer (/health is 503 when an application failed).
   */
  async request<T>(method: string, path: string, body?: unknown, credentials?: Credentials, answerStatuses: readonly number[] = []): Promise<T> {
    const headers = this.headers();
    if (credentials) headers.Authorization = credentials.authorization;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let response: Response;
    try {
      response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: "no-store" });
    } catch (error) {
      throw new ApiError(0, `Sluice did not answer: ${(error as Error).message}`);
    }
    const text = await response.text();
    if (!response.ok && !answerStatuses.includes(response.status)) throw this.failure(response, text, credentials === undefined);
    return (text === "" ? undefined : JSON.parse(text)) as T;
  }

  /** The answer of a failed request; a 401 to a logged-in request ends the session. */
  failure(response: Response, text: string, notify = true): ApiError {
    const error = new ApiError(response.status, errorMessage(response, text), response.headers.get("WWW-Authenticate") ?? undefined);
    if (response.status === 401 && notify) this.onUnauthorized(error);
    return error;
  }
}

function errorMessage(response: Response, text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (typeof body.message === "string") return body.message;
  } catch {
    // Not Sluice's JSON error shape: the status line says what happened.
  }
  return `${response.status} ${response.statusText || "error"}`.trim();
}
