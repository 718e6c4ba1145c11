/**
 * Protobuf names as protoc derives and resolves them: a field's JSON name, a map field's entry type, and a type
 * reference looked up from the scope it is written in outwards (`Inner` inside `.pkg.Outer` is `.pkg.Outer.Inner` if
 * that exists, else `.pkg.Inner`, else `.Inner`).
 */
export type TypeKind = "message" | "enum";

export class TypeNames {
  private readonly kinds = new Map<string, TypeKind>();

  /** Learns a type by its fully qualified name (leading dot). */
  add(name: string, kind: TypeKind): void {
    this.kinds.set(name, kind);
  }

  kindOf(name: string): TypeKind | undefined {
    return this.kinds.get(name);
  }

  /** `reference` as written in `scope` (a fully qualified name, or "" for the top), fully qualified; throws when unknown. */
  resolve(reference: string, scope: string, wanted?: TypeKind): { name: string; kind: TypeKind } {
    const candidates = reference.startsWith(".") ? [reference] : scopesOutwards(scope).map((outer) => `${outer}.${reference}`);
    for (const name of candidates) {
      const kind = this.kinds.get(name);
      if (kind !== undefined && (wanted === undefined || kind === wanted)) return { name, kind };
    }
    throw new Error(`type '${reference}' is not defined (in '${scope.slice(1) || "the file"}'; an import needs a reference of its name)`);
  }
}

function scopesOutwards(scope: string): string[] {
  const scopes: string[] = [];
  for (let outer = scope; ; outer = outer.slice(0, Math.max(0, outer.lastIndexOf(".")))) {
    scopes.push(outer);
    if (outer === "") return scopes;
  }
}

/** protoc's JSON name: underscores dropped, the letter after each upper-cased. */
export function jsonNameOf(fieldName: string): string {
  return fieldName.replace(/_+(.?)/g, (_, next: string) => next.toUpperCase());
}

/** The entry type of map field `fieldName`: `my_map` → `MyMapEntry`. */
export function mapEntryNameOf(fieldName: string): string {
  const camel = jsonNameOf(fieldName);
  return `${camel.charAt(0).toUpperCase()}${camel.slice(1)}Entry`;
}
