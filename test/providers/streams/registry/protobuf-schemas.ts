/**
 * The Protobuf schemas of the `protobuf` serde tests: as .proto text (which the registry parses) and, for the peers
 * that build their message classes at run time, as FileDescriptorProto JSON (what protoc would make of the text).
 */
import { createFileRegistry, fromJson, type DescMessage, type JsonObject } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";

export const WORD_COUNT_PROTO = `syntax = "proto3";
package test;

message WordCount {
  string word = 1;
  int64 count = 2;
}
`;

/** Imported by CUSTOMER_PROTO, registered under its own subject. */
export const ADDRESS_PROTO = `syntax = "proto3";
package test;

message Address {
  string city = 1;
}
`;

/** Customer is the file's second message, so that its records carry the message index 1. */
export const CUSTOMER_PROTO = `syntax = "proto3";
package test;

import "test/address.proto";

message Note {
  string text = 1;
}

message Customer {
  string full_name = 1;
  test.Address address = 2;
  int64 visits = 3;
}
`;

/** A chain of imports: TRIP_PROTO imports CITY_PROTO, which imports COUNTRY_PROTO. */
export const COUNTRY_PROTO = `syntax = "proto3";
package test;

message Country {
  string code = 1;
}
`;

export const CITY_PROTO = `syntax = "proto3";
package test;

import "test/country.proto";

message City {
  string name = 1;
  test.Country country = 2;
}
`;

export const TRIP_PROTO = `syntax = "proto3";
package test;

import "test/city.proto";

message Trip {
  test.City to = 1;
}
`;

export const proto = (schema: string, references?: { name: string; subject: string; version: number }[]) => ({ schemaType: "PROTOBUF", schema, ...(references === undefined ? {} : { references }) });

const field = (name: string, number: number, type: string, jsonName: string) => ({ name, number, type, label: "LABEL_OPTIONAL", jsonName });

/** SENTENCE_PROTO's and WORD_COUNT_PROTO's FileDescriptorProto, as JSON. */
export const SENTENCE_FILE = { name: "sentence.proto", package: "test", syntax: "proto3", messageType: [{ name: "Sentence", field: [field("text", 1, "TYPE_STRING", "text")] }] };
export const WORD_COUNT_FILE = { name: "word_count.proto", package: "test", syntax: "proto3", messageType: [{ name: "WordCount", field: [field("word", 1, "TYPE_STRING", "word"), field("count", 2, "TYPE_INT64", "count")] }] };

/** The message `typeName` of a FileDescriptorProto given as JSON (no imports). */
export function messageOf(file: JsonObject, typeName: string): DescMessage {
  const message = createFileRegistry(fromJson(FileDescriptorProtoSchema, file), () => undefined).getMessage(typeName);
  if (message === undefined) throw new Error(`no message ${typeName}`);
  return message;
}
