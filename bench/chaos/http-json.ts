/** Plain HTTP calls of a chaos run, each bounded by a timeout, never throwing for an HTTP status. */
export interface JsonAnswer {
  status: number;
  body: unknown;
  /** The body did not parse as JSON. */
  malformed: boolean;
}

export async function requestJson(url: string, init: { method?: string; body?: unknown; timeoutMs: number }): Promise<JsonAnswer> {
  const response = await fetch(url, {
    method: init.method ?? "GET",
    headers: init.body === undefined ? undefined : { "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(init.timeoutMs),
  });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text), malformed: false };
  } catch {
    return { status: response.status, body: text, malformed: true };
  }
}

export function storeQuery(query: Record<string, unknown>, options: Record<string, unknown>, type = "key_value") {
  return { type, set_options: options, query };
}
