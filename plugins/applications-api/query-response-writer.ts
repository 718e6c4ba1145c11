/**
 * Writes a query result (API.md §2.4) as it is produced: the local server's records go out (chunked) while the
 * store is scanned, so a result of any size takes bounded memory. The fields known only at the end (totals,
 * `took`, `status`) come after the records; JSON does not order an object's fields.
 */
import { once } from "node:events";
import type { ServerResponse } from "node:http";
import type { QueryRecord } from "../../kernel/contracts/query-engine";
import { JSON_CONTENT_TYPE } from "../../kernel/http/responses";

export type QueryStatus = "SUCCESS" | "PARTIAL" | "ERROR" | "NO_RESULT" | "NOT_AVAILABLE";

export interface SuccessEntry {
  server: string;
  remote: boolean;
  total: number;
  records: QueryRecord[];
}

export interface FailureEntry {
  server: string;
  remote: boolean;
  errors: { message: string }[];
}

export interface ResultTail {
  total: number;
  failure: FailureEntry[];
  took: number;
  timeout: boolean;
  status: QueryStatus;
}

const FLUSH_BYTES = 64 * 1024;

export class QueryResponseWriter {
  private pending = "";
  private entries = 0;
  private recordsInEntry = 0;
  private inEntry = false;

  constructor(private readonly res: ServerResponse, server: string) {
    this.pending = `{"server":${JSON.stringify(server)},"result":{"success":[`;
  }

  /** Whether records of a streamed entry have gone out (an error then can no longer become a clean answer). */
  get streaming(): boolean {
    return this.inEntry;
  }

  async openEntry(server: string, remote: boolean): Promise<void> {
    this.pending += `${this.entries++ > 0 ? "," : ""}{"server":${JSON.stringify(server)},"remote":${remote},"records":[`;
    this.inEntry = true;
    this.recordsInEntry = 0;
    await this.flushIfFull();
  }

  /** Adds a record already rendered as JSON; a promise only when the buffer went out and the connection must drain first. */
  record(recordJson: string): Promise<void> | undefined {
    this.pending += (this.recordsInEntry++ > 0 ? "," : "") + recordJson;
    return this.pending.length < FLUSH_BYTES ? undefined : this.flush();
  }

  async closeEntry(total: number): Promise<void> {
    this.pending += `],"total":${total}}`;
    this.inEntry = false;
    await this.flushIfFull();
  }

  /** A whole entry received from another server. */
  async entry(entry: SuccessEntry): Promise<void> {
    await this.openEntry(entry.server, entry.remote);
    for (const record of entry.records) await this.record(JSON.stringify(record));
    await this.closeEntry(entry.total);
  }

  async finish(tail: ResultTail): Promise<void> {
    this.pending += `],"failure":${JSON.stringify(tail.failure)},"total":${tail.total}},"took":${tail.took},"timeout":${tail.timeout},"status":"${tail.status}"}`;
    const last = this.pending;
    this.pending = "";
    // An answer that never filled the buffer goes out in one piece with its length, like any JSON response.
    if (!this.res.headersSent) this.res.writeHead(200, { "Content-Type": JSON_CONTENT_TYPE, "Content-Length": Buffer.byteLength(last) });
    await new Promise<void>((resolve) => this.res.end(last, () => resolve()));
  }

  private async flushIfFull(): Promise<void> {
    if (this.pending.length >= FLUSH_BYTES) await this.flush();
  }

  private async flush(): Promise<void> {
    const chunk = this.pending;
    this.pending = "";
    if (this.res.destroyed) throw new Error("the client closed the connection");
    if (!this.res.headersSent) this.res.writeHead(200, { "Content-Type": JSON_CONTENT_TYPE });
    if (!this.res.write(chunk)) await drained(this.res);
  }
}

async function drained(res: ServerResponse): Promise<void> {
  const listeners = new AbortController();
  const closed = once(res, "close", { signal: listeners.signal }).then(() => {
    throw new Error("the client closed the connection");
  });
  try {
    await Promise.race([once(res, "drain", { signal: listeners.signal }), closed]);
  } finally {
    listeners.abort();
  }
}
