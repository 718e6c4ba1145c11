/**
 * Reads and writes a message that carries its own version, an int16 before its fields. A version newer than the
 * declaration's is read as the newest declared, as Kafka's clients do: later versions only append fields.
 */
import { ByteReader } from "./byte-reader";
import { ByteWriter } from "./byte-writer";
import { MessageCodec } from "./codec";
import { MalformedMessageError } from "./malformed-message-error";
import type { DataSpec, DecodedStructOf, StructOf } from "./schema";
import { inRange, parseVersionRange, type VersionRange } from "./version-range";

/** A decoded data message: its fields, and the version its bytes declare. */
export type DecodedDataOf<D extends DataSpec> = DecodedStructOf<D["fields"]> & { version: number };

export class DataCodec<D extends DataSpec = DataSpec> {
  readonly versions: VersionRange;
  private readonly codec: MessageCodec;

  constructor(readonly spec: D) {
    this.versions = parseVersionRange(spec.versions);
    this.codec = new MessageCodec(spec.name, spec.fields);
  }

  encode(version: number, value: StructOf<D["fields"]>): Buffer {
    if (!inRange(this.versions, version)) throw new Error(`${this.spec.name} has no version ${version} (declared ${this.spec.versions})`);
    const writer = new ByteWriter();
    writer.int16(version);
    this.codec.encode(writer, version, value);
    return writer.finish();
  }

  /** Throws MalformedMessageError for bytes that do not hold the version they declare. */
  decode(bytes: Buffer): DecodedDataOf<D> {
    const reader = new ByteReader(bytes);
    const version = reader.int16();
    if (version < this.versions.min) throw new MalformedMessageError(`${this.spec.name} version ${version} is not declared (${this.spec.versions})`);
    return version > this.versions.max ? this.read(reader, version, this.versions.max) : this.readExactly(reader, version, version);
  }

  /** The fields of version `layout`, whatever version the bytes declare, which they must end with. */
  decodeAs(bytes: Buffer, layout: number): DecodedDataOf<D> {
    const reader = new ByteReader(bytes);
    return this.readExactly(reader, reader.int16(), layout);
  }

  private readExactly(reader: ByteReader, version: number, layout: number): DecodedDataOf<D> {
    const value = this.read(reader, version, layout);
    if (reader.remaining() > 0) throw new MalformedMessageError(`${reader.remaining()} bytes left after ${this.spec.name} version ${layout}`);
    return value;
  }

  private read(reader: ByteReader, version: number, layout: number): DecodedDataOf<D> {
    return { ...this.codec.decode(reader, layout), version } as DecodedDataOf<D>;
  }
}
