/** A record of a local answer as JSON text, its key and value rendered by the JSON serializer modules (docs/api.md#json-rendering). */
import type { JsonRenderer, JsonValue, QueryRecord, StoreHandle } from "sluice";

export type RecordText = (record: QueryRecord) => string;

export function recordText(renderer: JsonRenderer, application: string, store: StoreHandle): RecordText {
  const keyContext = { application, store: store.name, field: "key", serde: store.keySerde };
  const valueContext = { application, store: store.name, field: "value", serde: store.valueSerde };
  return (record) => {
    const json: Record<string, JsonValue> = { key: renderer.render(record.key, keyContext), value: renderer.render(record.value, valueContext) };
    if (record.timestamp !== undefined) json.timestamp = record.timestamp;
    if (record.validity !== undefined) {
      json.valid_from = record.validity.from;
      json.valid_to = record.validity.to;
    }
    return JSON.stringify(json);
  };
}
