import { type JsonValue, type SerializationContext, type SerializerModule, UnrepresentableValueError } from "sluice";

/** Dates as ISO-8601 strings; an invalid Date is an error rather than `null`. */
export class DateModule implements SerializerModule {
  readonly name = "date";

  handles(value: unknown): boolean {
    return value instanceof Date;
  }

  serialize(value: unknown, context: SerializationContext): JsonValue {
    const date = value as Date;
    if (Number.isNaN(date.getTime())) throw new UnrepresentableValueError("Date (invalid)", context);
    return date.toISOString();
  }
}
