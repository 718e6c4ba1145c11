/** A failed request, with the message of Sluice's error body (and what 401 and 403 mean here). */
import type { ApiError } from "../api/api-client";

export function ErrorNotice({ error, action }: { error: ApiError | undefined; action?: string }) {
  if (!error) return null;
  const what = error.status === 403 ? "Not allowed" : error.status === 0 ? "No answer" : `Error ${error.status}`;
  return (
    <p class="notice notice-error" role="alert">
      <strong>{action ? `${action}: ${what}` : what}.</strong> {error.message}
    </p>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="loading" role="status">
      Loading {what}…
    </p>
  );
}

/** A table row's cells before its first answer: the failure if the load failed, else that it is loading. */
export function PendingCells({ error, what, span }: { error: ApiError | undefined; what: string; span: number }) {
  return <td colSpan={span}>{error ? <ErrorNotice error={error} /> : <Loading what={what} />}</td>;
}
