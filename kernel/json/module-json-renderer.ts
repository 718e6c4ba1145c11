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
    for (const module of this.registered) {
      if (module.handles(value, context)) return module.serialize(value, context, this.nested(context));
    }
    if (value === null || typeof value === "string" || typeof value === "boolean") return value;
    if (typeof value === "number") {
      if (Number.isFinite(value)) return value;
      throw new UnrepresentableValueError(`number (${value})`, context);
    }
    if (Array.isArray(value)) {
      const render = this.nested(context);
      return value.map((item) => (item === undefined ? null : render(item)));
    }
    if (typeof value === "object") {
      const prototype = Object.getPrototypeOf(value);
      if (prototype === Object.prototype || prototype === null) return renderPlainObject(value as Record<string, unknown>, this.nested(context));
      const toJSON = (value as { toJSON?: () => unknown }).toJSON;
      if (typeof toJSON === "function") return this.render(toJSON.call(value), context);
    }
    throw new UnrepresentableValueError(typeNameOf(value), context);
  }

  /** How nested values are rendered; made only for a value that has some, since most record keys and values are scalars. */
  private nested(context: SerializationContext): (nested: unknown) => JsonValue {
    return (nested) => this.render(nested, context);
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
