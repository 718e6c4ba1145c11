/** Which query definitions each store type has, gathered from the query engines found through descriptors. */
import { type QueryDefinition, type QueryEngine, StartupError, STORE_TYPES, type StoreType } from "sluice";

export { STORE_TYPES };

export class QueryCatalog {
  private readonly byType = new Map<StoreType, Map<string, QueryDefinition>>();

  constructor(engines: readonly { name: string; instance: QueryEngine }[]) {
    const declaredBy = new Map<string, string>();
    for (const { name, instance } of engines) {
      for (const type of instance.storeTypes) {
        const queries = this.byType.get(type) ?? new Map<string, QueryDefinition>();
        this.byType.set(type, queries);
        for (const definition of instance.queries) {
          const id = `${type}/${definition.name}`;
          const previous = declaredBy.get(id);
          if (previous) throw new StartupError(`Query '${definition.name}' of store type '${type}' is declared by both ${previous} and ${name}`);
          declaredBy.set(id, name);
          queries.set(definition.name, definition);
        }
      }
    }
  }

  definition(type: StoreType, query: string): QueryDefinition | undefined {
    return this.byType.get(type)?.get(query);
  }

  /** Query names of a store type, in declaration order. */
  queriesOf(type: StoreType): string[] {
    return [...(this.byType.get(type)?.keys() ?? [])];
  }

  /** Every query name with the store types that have it and its parameters there, in declaration order. */
  queries(): { name: string; uses: { type: StoreType; parameters: string[] }[] }[] {
    const byName = new Map<string, { type: StoreType; parameters: string[] }[]>();
    for (const [type, queries] of this.byType) {
      for (const definition of queries.values()) {
        const uses = byName.get(definition.name) ?? [];
        byName.set(definition.name, uses);
        uses.push({ type, parameters: definition.parameters.map((parameter) => (parameter.optional ? `${parameter.name} (optional)` : parameter.name)) });
      }
    }
    return [...byName].map(([name, uses]) => ({ name, uses }));
  }

  /** Whether some store type has a query of this name. */
  knows(query: string): boolean {
    return [...this.byType.values()].some((queries) => queries.has(query));
  }
}
