/**
 * Renders values to JSON through the registered serializer modules, then the plain JSON rules (strings,
 * finite numbers, booleans, null, arrays, plain objects, objects with toJSON). Anything else is an error naming
 * its type and where it came from — never a silent `{}`.
 */
import {
  UnrepresentableValueError,
  type JsonRenderer,
  type JsonValue,
  type SerializationContext,
  type SerializerModule,
} from "../contracts/json-serializer";

export class ModuleJsonRenderer implements JsonRenderer {
  constructor(private readonly registered: readonly SerializerModule[]) {}

  modules(): string[] {
    return this.registered.map((module) => module.name);
  }

  render(value: unknown, context: SerializationContext = {}): JsonValue {
    const render = (nested: unknown): JsonValue => this.render(nested, context);
    for (const module of this.registered) {
      if (module.handles(value, context)) return module.serialize(value, context, render);
    }
    if (value === null || typeof value === "string" || typeof value === "boolean") return value;
    if (typeof value === "number") {
      if (Number.isFinite(value)) return value;
      throw new UnrepresentableValueError(`number (${value})`, context);
    }
    if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : render(item)));
    if (typeof value === "object") {
      const prototype = Object.getPrototypeOf(value);
      if (prototype === Object.prototype || prototype === null) return renderPlainObject(value as Record<string, unknown>, render);
      const toJSON = (value as { toJSON?: () => unknown }).toJSON;
      if (typeof toJSON === "function") return render(toJSON.call(value));
    }
    throw new UnrepresentableValueError(typeNameOf(value), context);
  }
}

function renderPlainObject(object: Record<string, unknown>, render: (nested: unknown) => JsonValue): JsonValue {
  const out: Record<string, JsonValue> = {};
  for (const [key, nested] of Object.entries(object)) {
    if (nested !== undefined) out[key] = render(nested);
  }
  return out;
}

function typeNameOf(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "object" && value !== null) return (value as object).constructor?.name ?? "Object";
  return typeof value;
}
