/**
 * The subject a registry serde writes under, as Confluent's subject name strategies name it: TopicNameStrategy
 * (`<topic>-key` / `<topic>-value`, from Confluent's package), RecordNameStrategy (the record's name) and
 * TopicRecordNameStrategy (`<topic>-<record name>`). The record's name is the one Confluent's schemas give themselves
 * (ParsedSchema.name()): a format supplies it (SchemaFormat.recordName) from the schema the topology gives the serde,
 * since a JavaScript value carries no schema to take it from.
 */
import type { ConfluentPackage } from "./confluent-package";
import type { SerdeRole } from "./registry-serde";
import type { SubjectStrategy } from "./registry-settings";

/** What a serde writing a `role` to `topic` knows of its schema's name, asked only under the record strategies. */
export interface RecordNaming {
  serdeName: string;
  schemaType: string;
  /** False when the topology gave the serde no schema. */
  hasSchema: boolean;
  /** The given schema's record name, or undefined when it has none. */
  recordName(): Promise<string | undefined>;
}

export async function writingSubject(pkg: ConfluentPackage, strategy: SubjectStrategy, topic: string, role: SerdeRole, naming: RecordNaming): Promise<string> {
  if (strategy === "topic") return pkg.topicSubject(topic, role);
  const setting = `${role}.subject.name.strategy=${strategy}`;
  if (!naming.hasSchema) {
    throw new Error(`${setting}: the ${naming.serdeName} serde writing a ${role} to '${topic}' names its subject after the record's schema, which a JavaScript value does not carry; give the serde its schema ({ serde: "${naming.serdeName}", schema }) or use the topic strategy`);
  }
  const name = await naming.recordName();
  if (name === undefined || name === "") {
    throw new Error(`${setting}: the ${naming.serdeName} serde writing a ${role} to '${topic}' names its subject after the record, and its ${naming.schemaType} schema names none (an Avro record's full name, a JSON schema's "title", a Protobuf message's full name)`);
  }
  return strategy === "record" ? name : `${topic}-${name}`;
}
