/** A record of a local answer as JSON text, its key and value rendered by the JSON serializer modules (API.md §6). */
import type { JsonRenderer, JsonValue } from "../../kernel/contracts/json-serializer";
import type { QueryRecord } from "../../kernel/contracts/query-engine";

export type RecordText = (record: QueryRecord) => string;

export function recordText(renderer: JsonRenderer, application: string, store: string): RecordText {
  const keyContext = { application, store, field: "key" };
  const valueContext = { application, store, field: "value" };
  return (record) => {
    const json: Record<string, JsonValue> = { key: renderer.render(record.key, keyContext), value: renderer.render(record.value, valueContext) };
    if (record.timestamp !== undefined) json.timestamp = record.timestamp;
    return JSON.stringify(json);
  };
}
