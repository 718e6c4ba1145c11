/** Posting interactive queries in tests: the request of docs/api.md#query-request, the answer parsed. */
import { http, type HttpResult } from "../../helpers/sluice";

export interface QueryAnswer {
  took: number;
  timeout: boolean;
  server: string;
  status: string;
  result: {
    total: number;
    success: { server: string; remote: boolean; total: number; records: { key: any; value: any; timestamp?: number }[] }[];
    failure: { server: string; remote: boolean; errors: { message: string }[] }[];
  };
}

export function postQuery(url: string, application: string, store: string, body: unknown): Promise<HttpResult> {
  return http(`${url}/api/v1/applications/${application}/stores/${store}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** Posts a query that must be answered 200 and returns the parsed result. */
export async function query(url: string, application: string, store: string, body: unknown): Promise<QueryAnswer> {
  const response = await postQuery(url, application, store, body);
  if (response.status !== 200) throw new Error(`query answered ${response.status}: ${response.text}`);
  return response.json() as QueryAnswer;
}

/** Every record of every success entry. */
export const recordsOf = (answer: QueryAnswer) => answer.result.success.flatMap((entry) => entry.records);
