/**
 * The schemas a registered schema references (`references: [{name, subject, version}]`), fetched through the registry
 * client (which caches them), each after those it references in turn: the order in which a format must learn them.
 */
import type { RegisteredSchema, RegistryClient, SchemaReference } from "./confluent-package";

/** The schemas `schema` references, transitively, dependencies first, each once, by reference name. */
export async function referencedSchemas(schema: RegisteredSchema, client: RegistryClient): Promise<Map<string, RegisteredSchema>> {
  const found = new Map<string, RegisteredSchema>();
  const visit = async (references: SchemaReference[] | undefined, path: string[]): Promise<void> => {
    for (const reference of references ?? []) {
      if (found.has(reference.name)) continue;
      if (path.includes(reference.name)) throw new Error(`schema reference cycle through '${reference.name}'`);
      const referenced = await client.getSchemaMetadata(reference.subject, reference.version);
      await visit(referenced.references, [...path, reference.name]);
      found.set(reference.name, referenced);
    }
  };
  await visit(schema.references, []);
  return found;
}
