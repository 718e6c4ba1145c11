/** The codecs of one API: its request and response declarations, bound to the versions it implements. */
import type { ByteReader } from "./byte-reader";
import { ByteWriter } from "./byte-writer";
import { MessageCodec } from "./codec";
import type { ApiSpec, RequestOf, ResponseOf } from "./schema";
import { inRange, parseVersionRange, type VersionRange } from "./version-range";

export class ApiCodec<A extends ApiSpec = ApiSpec> {
  readonly versions: VersionRange;
  private readonly request: MessageCodec;
  private readonly response: MessageCodec;

  constructor(readonly spec: A) {
    this.versions = parseVersionRange(spec.versions);
    this.request = new MessageCodec(`${spec.name}Request`, spec.request);
    this.response = new MessageCodec(`${spec.name}Response`, spec.response);
  }

  get apiKey(): number {
    return this.spec.apiKey;
  }

  supports(version: number): boolean {
    return inRange(this.versions, version);
  }

  decodeRequest(reader: ByteReader, version: number): RequestOf<A> {
    return this.request.decode(reader, version) as RequestOf<A>;
  }

  /** A whole response frame: size prefix, response header v0 (the correlation id), then the body. */
  encodeResponseFrame(correlationId: number, version: number, body: ResponseOf<A>): Buffer[] {
    const writer = new ByteWriter();
    writer.int32(0);
    writer.int32(correlationId);
    this.response.encode(writer, version, body);
    return writer.finishFrame();
  }
}
