/**
 * Whether data written with one Protobuf schema can be read with another: the differences Confluent's registry finds
 * between two schemas (its `protobuf.diff` Difference types), of which these refuse a schema: PACKAGE_CHANGED,
 * MESSAGE_REMOVED, FIELD_KIND_CHANGED (scalar or enum, message, map), FIELD_SCALAR_KIND_CHANGED (outside the
 * wire-compatible groups: int32/int64/uint32/uint64/bool/enum; sint32/sint64; string/bytes; fixed32/sfixed32;
 * fixed64/sfixed64; float; double), FIELD_NAMED_TYPE_CHANGED, FIELD_NUMERIC_LABEL_CHANGED (a number field's written
 * label changed: optional, required, repeated), REQUIRED_FIELD_ADDED, REQUIRED_FIELD_REMOVED, ONEOF_FIELD_REMOVED (a member dropped from a oneof
 * that stays), MULTIPLE_FIELDS_MOVED_TO_ONEOF and FIELD_MOVED_TO_EXISTING_ONEOF (fields that were independent made
 * mutually exclusive). Adding or removing messages' fields, enums and their constants, renaming a field, adding a
 * oneof or removing a whole one, and moving a member out of its oneof are accepted, as there.
 *
 * Fields are matched by number; messages and enums by their names within the package. A proto3 `optional` field's
 * own oneof is not a oneof here (Confluent's parser reads it as a label). A field's message type is compared by its
 * name; the named message's own changes are found where it is defined.
 */
import { isFieldSet } from "@bufbuild/protobuf";
import { type DescriptorProto, type FieldDescriptorProto, FieldDescriptorProto_Label, FieldDescriptorProto_Type as T, FieldDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import type { ProtobufSchema } from "./protobuf-type";

const SCALAR_GROUPS: readonly T[][] = [
  [T.INT32, T.INT64, T.UINT32, T.UINT64, T.BOOL, T.ENUM],
  [T.SINT32, T.SINT64],
  [T.STRING, T.BYTES],
  [T.FIXED32, T.SFIXED32],
  [T.FIXED64, T.SFIXED64],
  [T.FLOAT],
  [T.DOUBLE],
];
const NUMERIC_GROUPS = SCALAR_GROUPS.filter((group) => !group.includes(T.STRING));

type Kind = "scalar" | "message" | "map";

interface Side {
  schema: ProtobufSchema;
  messages: Map<string, DescriptorProto>;
}

/** Why data written with `writer` may not be read with `reader`: one message per refused difference; empty when none. */
export function protobufUnreadable(reader: ProtobufSchema, writer: ProtobufSchema): string[] {
  const original = sideOf(writer);
  const update = sideOf(reader);
  const messages: string[] = [];
  const refuse = (type: string, path: string, detail: string) => messages.push(`${type} at ${path}: ${detail}`);
  if (writer.file.package !== reader.file.package) refuse("PACKAGE_CHANGED", "#/", `package '${writer.file.package}' became '${reader.file.package}'`);
  const local = (side: Side) => new Map([...side.messages].map(([name, message]) => [localName(name, side), message]));
  const updateByLocal = local(update);
  for (const [name, message] of local(original)) {
    if (message.options?.mapEntry === true) continue;
    const updated = updateByLocal.get(name);
    if (updated === undefined) refuse("MESSAGE_REMOVED", `#/${name}`, `message ${name} was removed`);
    else compareMessages(message, updated, `#/${name}`, original, update, refuse);
  }
  return messages;
}

function sideOf(schema: ProtobufSchema): Side {
  const messages = new Map<string, DescriptorProto>();
  const visit = (list: DescriptorProto[], scope: string) => {
    for (const message of list) {
      messages.set(`${scope}.${message.name}`, message);
      visit(message.nestedType, `${scope}.${message.name}`);
    }
  };
  visit(schema.file.messageType, schema.file.package === "" ? "" : `.${schema.file.package}`);
  return { schema, messages };
}

const localName = (name: string, side: Side) => (side.schema.file.package === "" ? name.slice(1) : name.slice(side.schema.file.package.length + 2));

type Refuse = (type: string, path: string, detail: string) => void;

/** A field's oneof by name, unless it is a proto3 `optional` field's own. */
const oneofOf = (message: DescriptorProto, field: FieldDescriptorProto) =>
  field.proto3Optional || !isFieldSet(field, FieldDescriptorProtoSchema.field.oneofIndex) ? undefined : message.oneofDecl[field.oneofIndex]?.name;

function compareMessages(original: DescriptorProto, update: DescriptorProto, path: string, originalSide: Side, updateSide: Side, refuse: Refuse): void {
  const byNumber = (message: DescriptorProto) => new Map(message.field.map((field) => [field.number, field]));
  const originalFields = byNumber(original);
  const updateFields = byNumber(update);
  const originalOneofs = new Set(original.field.map((f) => oneofOf(original, f)).filter((name): name is string => name !== undefined));
  const updateOneofs = new Set(update.field.map((f) => oneofOf(update, f)).filter((name): name is string => name !== undefined));
  // A oneof removed with none of its members left anywhere is a whole deletion, which readers take.
  const deleted = new Set([...originalOneofs].filter((name) => !updateOneofs.has(name) && !original.field.some((f) => oneofOf(original, f) === name && updateFields.has(f.number))));
  for (const name of updateOneofs) {
    const origins = new Set<string>();
    let movedIn = 0;
    for (const field of update.field.filter((f) => oneofOf(update, f) === name)) {
      const before = originalFields.get(field.number);
      if (before === undefined) continue;
      const was = oneofOf(original, before);
      origins.add(was === undefined ? `field:${field.number}` : `oneof:${was}`);
      if (was === undefined) movedIn++;
    }
    if (origins.size > 1) {
      if (movedIn > 1) refuse("MULTIPLE_FIELDS_MOVED_TO_ONEOF", `${path}/${name}`, `fields that were independent are now in oneof ${name}`);
      else refuse("FIELD_MOVED_TO_EXISTING_ONEOF", `${path}/${name}`, `a field was moved into oneof ${name} with others`);
    }
  }
  for (const [number, before] of originalFields) {
    const after = updateFields.get(number);
    const at = `${path}/${number}`;
    if (after === undefined) {
      const oneof = oneofOf(original, before);
      if (oneof !== undefined && !deleted.has(oneof)) refuse("ONEOF_FIELD_REMOVED", `${path}/${oneof}/${number}`, `field ${before.name} was removed from oneof ${oneof}`);
      else if (oneof === undefined && before.label === FieldDescriptorProto_Label.REQUIRED) refuse("REQUIRED_FIELD_REMOVED", at, `required field ${before.name} was removed`);
      continue;
    }
    compareFields(before, after, at, originalSide, updateSide, refuse);
  }
  for (const [number, after] of updateFields) {
    if (!originalFields.has(number) && oneofOf(update, after) === undefined && after.label === FieldDescriptorProto_Label.REQUIRED) {
      refuse("REQUIRED_FIELD_ADDED", `${path}/${number}`, `required field ${after.name} was added`);
    }
  }
}

/**
 * A field's label as Confluent's parser reads the text: none for a proto3 field without one or a oneof member, so
 * only a change between two written labels (optional, required, repeated) counts.
 */
function labelOf(field: FieldDescriptorProto, side: Side): string | undefined {
  if (field.label === FieldDescriptorProto_Label.REPEATED) return "repeated";
  if (field.label === FieldDescriptorProto_Label.REQUIRED) return "required";
  if (field.proto3Optional) return "optional";
  return side.schema.file.syntax === "proto3" || isFieldSet(field, FieldDescriptorProtoSchema.field.oneofIndex) ? undefined : "optional";
}

function kindOf(field: FieldDescriptorProto, side: Side): Kind {
  if (field.type !== T.MESSAGE) return "scalar";
  return side.messages.get(field.typeName)?.options?.mapEntry === true ? "map" : "message";
}

function compareFields(before: FieldDescriptorProto, after: FieldDescriptorProto, at: string, originalSide: Side, updateSide: Side, refuse: Refuse): void {
  const kinds = [kindOf(before, originalSide), kindOf(after, updateSide)];
  if (kinds[0] !== kinds[1]) return refuse("FIELD_KIND_CHANGED", at, `field ${after.name} changed from ${kinds[0]} to ${kinds[1]}`);
  if (kinds[0] === "map") {
    const [originalEntry, updateEntry] = [originalSide.messages.get(before.typeName), updateSide.messages.get(after.typeName)];
    if (originalEntry !== undefined && updateEntry !== undefined) {
      for (const index of [0, 1]) compareFields(originalEntry.field[index], updateEntry.field[index], `${at}/${originalEntry.field[index].name}`, originalSide, updateSide, refuse);
    }
    return;
  }
  if (kinds[0] === "message") {
    if (localName(before.typeName, originalSide) !== localName(after.typeName, updateSide)) refuse("FIELD_NAMED_TYPE_CHANGED", at, `field ${after.name} changed type from ${before.typeName} to ${after.typeName}`);
    return;
  }
  const group = SCALAR_GROUPS.find((g) => g.includes(before.type));
  if (group === undefined || !group.includes(after.type)) return refuse("FIELD_SCALAR_KIND_CHANGED", at, `field ${after.name} changed from ${T[before.type].toLowerCase()} to ${T[after.type].toLowerCase()}`);
  const [was, is] = [labelOf(before, originalSide), labelOf(after, updateSide)];
  if (NUMERIC_GROUPS.includes(group) && was !== undefined && is !== undefined && was !== is) refuse("FIELD_NUMERIC_LABEL_CHANGED", at, `number field ${after.name} changed from ${was} to ${is}`);
}
