/**
 * protoc is the oracle for the registry's Protobuf descriptors: each fixture in test/fixtures/protobuf is compiled
 * with `protoc --descriptor_set_out` (without --include_imports, so the set holds that file alone), and the
 * FileDescriptorProto the registry makes of the same text must equal protoc's. protoc writes no source_code_info
 * without --include_source_info, and the registry writes none, so whole descriptors are compared. The canonical text
 * written from the descriptor must read back as itself, and protoc's serialized descriptor registered in place of
 * the text must give the same canonical text. (The canonical text declares a message's fields before its nested
 * messages, so a map entry's place among the nested types may move when it is parsed again; message indexes skip
 * map entries.)
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fromBinary, toBinary, toJson } from "@bufbuild/protobuf";
import { type FileDescriptorProto, FileDescriptorProtoSchema, FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { protobufSchemaOf } from "../../../plugins/schema-registry/protobuf-type";
import { protoText } from "../../../plugins/schema-registry/protobuf-text";
import { fixturePath } from "../../helpers/json-lines-program";

const FIXTURES = fixturePath("protobuf");
/** Each fixture with the fixtures it imports (well-known types need none). */
const CASES: [string, string[]][] = [
  ["shop/common.proto", []],
  ["shop/order.proto", ["shop/common.proto"]],
  ["legacy.proto", []],
  ["plain.proto", []],
  ["reexport.proto", ["shop/common.proto"]],
];

const read = (file: string) => fs.readFileSync(path.join(FIXTURES, file), "utf8");
const json = (file: FileDescriptorProto) => toJson(FileDescriptorProtoSchema, file);

/** protoc's descriptor of `file`: the peer must be installed (.ci/run installs Debian's protobuf-compiler). */
function protocDescriptor(file: string): FileDescriptorProto {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-protoc-"));
  try {
    const out = path.join(dir, "set.pb");
    execFileSync("protoc", [`-I${FIXTURES}`, `--descriptor_set_out=${out}`, path.join(FIXTURES, file)], { stdio: ["ignore", "ignore", "pipe"] });
    const set = fromBinary(FileDescriptorSetSchema, fs.readFileSync(out));
    assert.is(set.file.length, 1, "without --include_imports the set holds the file alone");
    return set.file[0];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

for (const [file, imports] of CASES) {
  test(`${file}: the registry's descriptor is protoc's, and its text and serialized forms give it back`, () => {
    const resolved = { schema: read(file), dependencies: imports.map(read), referenceNames: imports };
    const protoc = protocDescriptor(file);
    const mine = protobufSchemaOf(resolved, file).file;
    assert.equal(json(mine), json(protoc));

    const text = protoText(mine);
    assert.is(protoText(protobufSchemaOf({ ...resolved, schema: text }, file).file), text, "the canonical text reads back as itself");
    const serialized = Buffer.from(toBinary(FileDescriptorProtoSchema, protoc)).toString("base64");
    const fromSerialized = protobufSchemaOf({ ...resolved, schema: serialized }, file).file;
    assert.equal(json(fromSerialized), json(protoc), "a serialized descriptor is taken as it is");
    assert.is(protoText(fromSerialized), text, "protoc's serialized descriptor and the text are one schema");
  });
}

test.run();
