/**
 * The codecs of one API: its request and response declarations, bound to the versions one side speaks — all
 * those declared, or fewer (the client leaves out versions Kafka removed; a test broker advertises fewer).
 */
import type { ByteReader } from "./byte-reader";
import { ByteWriter } from "./byte-writer";
import { MessageCodec } from "./codec";
import type { ApiSpec, DecodedStructOf, RequestOf, ResponseOf, StructOf } from "./schema";
import { inRange, parseVersionRange, type VersionRange } from "./version-range";

/** What a client encodes: fields with a declared default may be omitted. */
export type RequestBodyOf<A extends ApiSpec> = StructOf<A["request"]>;
/** What a client decodes: every field present. */
export type DecodedResponseOf<A extends ApiSpec> = DecodedStructOf<A["response"]>;

export class ApiCodec<A extends ApiSpec = ApiSpec> {
  readonly versions: VersionRange;
  private readonly request: MessageCodec;
  private readonly response: MessageCodec;

  /** `within`: a range written as the declarations write them ("3+", "4-6"), the versions to keep of those declared. */
  constructor(
    readonly spec: A,
    within?: string,
  ) {
    const declared = parseVersionRange(spec.versions);
    const kept = within === undefined ? declared : parseVersionRange(within);
    this.versions = { min: Math.max(declared.min, kept.min), max: Math.min(declared.max, kept.max) };
    if (this.versions.min > this.versions.max) throw new Error(`${spec.name} declares versions ${spec.versions}, none of them within ${within}`);
    this.request = new MessageCodec(`${spec.name}Request`, spec.request, spec.flexibleVersions);
    this.response = new MessageCodec(`${spec.name}Response`, spec.response, spec.flexibleVersions);
  }

  get apiKey(): number {
    return this.spec.apiKey;
  }

  supports(version: number): boolean {
    return inRange(this.versions, version);
  }

  /**
   * A request body, read after what request header v1 holds (up to the client id); in a flexible version the
   * header (v2) goes on with its tagged fields, which are read past first.
   */
  decodeRequest(reader: ByteReader, version: number): RequestOf<A> {
    if (this.request.isFlexible(version)) reader.skipTaggedFields();
    return this.request.decode(reader, version) as RequestOf<A>;
  }

  /** A whole request frame, as a client sends it: size prefix, request header v1 (v2 in a flexible version), then the body. */
  encodeRequestFrame(correlationId: number, version: number, clientId: string | null, body: RequestBodyOf<A>): Buffer[] {
    const writer = new ByteWriter();
    writer.int32(0);
    writer.int16(this.spec.apiKey);
    writer.int16(version);
    writer.int32(correlationId);
    // Header v2 keeps the client id in the classic encoding.
    writer.nullableString(clientId);
    if (this.request.isFlexible(version)) writer.noTaggedFields();
    this.request.encode(writer, version, body);
    return writer.finishFrame();
  }

  /** A response body, read after the correlation id by the client that sent the request (and header v1's tagged fields). */
  decodeResponse(reader: ByteReader, version: number): DecodedResponseOf<A> {
    if (this.response.isFlexible(version)) reader.skipTaggedFields();
    return this.response.decode(reader, version) as DecodedResponseOf<A>;
  }

  /** A whole response frame: size prefix, response header v0 (the correlation id; v1 adds tagged fields in a flexible version), then the body. */
  encodeResponseFrame(correlationId: number, version: number, body: ResponseOf<A>): Buffer[] {
    const writer = new ByteWriter();
    writer.int32(0);
    writer.int32(correlationId);
    if (this.response.isFlexible(version)) writer.noTaggedFields();
    this.response.encode(writer, version, body);
    return writer.finishFrame();
  }
}
