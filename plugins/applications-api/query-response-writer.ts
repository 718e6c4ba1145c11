/**
 * Writes a query result (docs/api.md, "Interactive queries") as it is produced: the local server's records go out
 * (chunked) while the store is scanned, so a result of any size takes bounded memory. The fields known only at the
 * end (totals, `took`, `status`) come after the records; JSON does not order an object's fields. The text goes to an
 * HTTP response, or is collected whole for the interactive-query service: both answer the same.
 */
import { once } from "node:events";
import type { ServerResponse } from "node:http";
import { JSON_CONTENT_TYPE, type StoreQueryFailure, type StoreQueryStatus, type StoreQuerySuccess } from "sluice";

export type QueryStatus = StoreQueryStatus;
export type SuccessEntry = StoreQuerySuccess<unknown, unknown>;
export type FailureEntry = StoreQueryFailure;

export interface ResultTail {
  total: number;
  failure: FailureEntry[];
  took: number;
  timeout: boolean;
  status: QueryStatus;
}

/** Under allow_stale, what an entry says of the copy that answered. */
export interface Staleness {
  standby: boolean;
  lag: number;
}

/** Where the answer's text goes. */
export interface AnswerOutput {
  /** A piece before the last; a promise when the reader must catch up first. */
  write(chunk: string): Promise<void>;
  /** The last piece. */
  end(last: string): void;
}

const FLUSH_BYTES = 64 * 1024;

/**
 * Only a record can fill the buffer (entry brackets add a few bytes over it at most), and it answers a promise
 * only when the buffer went out and the connection must drain first: an answer that fits in the buffer (most)
 * costs no promise.
 */
export class QueryResponseWriter {
  private pending: string;
  private entries = 0;
  private recordsInEntry = 0;
  private inEntry = false;
  /** Under allow_stale, what this instance's own entry says of the copy that answers (an active task's unless set otherwise). */
  localStaleness?: Staleness;

  /** `serverJson`: this server's `host:port` as a JSON string. */
  constructor(private readonly output: AnswerOutput, serverJson: string) {
    this.pending = `{"server":${serverJson},"result":{"success":[`;
  }

  /** Whether records of a streamed entry have gone out (an error then can no longer become a clean answer). */
  get streaming(): boolean {
    return this.inEntry;
  }

  /** `staleness`: with allow_stale, whether a standby answers and its lag. */
  openEntry(serverJson: string, remote: boolean, staleness = remote ? undefined : this.localStaleness): void {
    const stale = staleness === undefined ? "" : `"standby":${staleness.standby},"lag":${staleness.lag},`;
    this.pending += `${this.entries++ > 0 ? "," : ""}{"server":${serverJson},"remote":${remote},${stale}"records":[`;
    this.inEntry = true;
    this.recordsInEntry = 0;
  }

  /** Adds a record already rendered as JSON. */
  record(recordJson: string): Promise<void> | undefined {
    this.pending += this.recordsInEntry++ > 0 ? `,${recordJson}` : recordJson;
    return this.pending.length < FLUSH_BYTES ? undefined : this.flush();
  }

  closeEntry(total: number): void {
    this.pending += `],"total":${total}}`;
    this.inEntry = false;
  }

  /** A whole entry received from another server. */
  async entry(entry: SuccessEntry): Promise<void> {
    this.openEntry(JSON.stringify(entry.server), entry.remote, entry.standby === undefined ? undefined : { standby: entry.standby, lag: entry.lag ?? 0 });
    for (const record of entry.records) await this.record(JSON.stringify(record));
    this.closeEntry(entry.total);
  }

  /** Ends the answer; the connection writes it out on its own (nothing to wait for). */
  finish(tail: ResultTail): void {
    const failure = tail.failure.length === 0 ? "[]" : JSON.stringify(tail.failure);
    const last = `${this.pending}],"failure":${failure},"total":${tail.total}},"took":${tail.took},"timeout":${tail.timeout},"status":"${tail.status}"}`;
    this.pending = "";
    this.output.end(last);
  }

  private flush(): Promise<void> {
    const chunk = this.pending;
    this.pending = "";
    return this.output.write(chunk);
  }
}

/** The answer as the HTTP response of the query route. */
export class HttpAnswer implements AnswerOutput {
  constructor(private readonly res: ServerResponse) {}

  async write(chunk: string): Promise<void> {
    const { res } = this;
    if (res.destroyed) throw new Error("the client closed the connection");
    if (!res.headersSent) res.writeHead(200, { "Content-Type": JSON_CONTENT_TYPE });
    if (!res.write(chunk)) await drained(res);
  }

  end(last: string): void {
    // An answer that never filled the buffer goes out in one piece with its length, like any JSON response.
    if (!this.res.headersSent) this.res.writeHead(200, ["Content-Type", JSON_CONTENT_TYPE, "Content-Length", String(Buffer.byteLength(last))]);
    this.res.end(last);
  }
}

/** The answer's text collected whole, for the interactive-query service; `text` once it has ended. */
export class CollectedAnswer implements AnswerOutput {
  private readonly pieces: string[] = [];
  private ended: string | undefined;

  async write(chunk: string): Promise<void> {
    this.pieces.push(chunk);
  }

  end(last: string): void {
    this.pieces.push(last);
    this.ended = this.pieces.join("");
  }

  get text(): string {
    if (this.ended === undefined) throw new Error("the query answer has not ended");
    return this.ended;
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
