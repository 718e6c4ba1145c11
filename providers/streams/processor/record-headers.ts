/**
 * A record's headers (Kafka's RecordHeaders): an ordered list in which a name may repeat. Records made from one
 * another (`withValue` and the like) each have their own headers, as in Kafka Streams; here the list is shared
 * until one of them changes it, so carrying headers through a topology copies nothing.
 */
import type { Header, Headers } from "../../../kernel/contracts/streams/processor";

const NO_HEADERS: readonly Header[] = Object.freeze([]);

export class RecordHeaders implements Headers {
  private list: Header[];
  /** Whether `list` may be another RecordHeaders' too: it is copied before its first change. */
  private shared: boolean;

  /** A copy of `headers` (none: empty). */
  constructor(headers?: Iterable<Header> | null) {
    if (headers instanceof RecordHeaders) {
      headers.shared = true;
      this.list = headers.list;
      this.shared = true;
    } else {
      this.list = [];
      this.shared = false;
      if (headers !== undefined && headers !== null) for (const header of headers) this.add(header);
    }
  }

  add(key: string, value: Buffer | string | null): Headers;
  add(header: Header): Headers;
  add(keyOrHeader: string | Header, value?: Buffer | string | null): Headers {
    const header = typeof keyOrHeader === "string" ? { key: keyOrHeader, value: typeof value === "string" ? Buffer.from(value, "utf8") : (value ?? null) } : keyOrHeader;
    if (header === null || typeof header !== "object" || typeof header.key !== "string") throw new TypeError("a header needs a string key");
    this.writable().push({ key: header.key, value: header.value ?? null });
    return this;
  }

  remove(key: string): Headers {
    if (this.list.some((header) => header.key === key)) this.list = this.writable().filter((header) => header.key !== key);
    return this;
  }

  lastHeader(key: string): Header | null {
    for (let i = this.list.length - 1; i >= 0; i--) if (this.list[i].key === key) return this.list[i];
    return null;
  }

  headers(key: string): Iterable<Header> {
    return this.list.filter((header) => header.key === key);
  }

  toArray(): Header[] {
    return [...this.list];
  }

  [Symbol.iterator](): Iterator<Header> {
    return this.list[Symbol.iterator]();
  }

  /** The headers as they are now, for writing them out or keeping them: later changes to these headers copy them first. */
  entries(): readonly Header[] {
    if (this.list.length === 0) return NO_HEADERS;
    this.shared = true;
    return this.list;
  }

  get size(): number {
    return this.list.length;
  }

  toJSON(): { key: string; value: string | null }[] {
    return this.list.map(({ key, value }) => ({ key, value: value === null ? null : value.toString("utf8") }));
  }

  private writable(): Header[] {
    if (this.shared) {
      this.list = [...this.list];
      this.shared = false;
    }
    return this.list;
  }
}
