/**
 * The ACLs in force: those `broker.acls` configures, which only the configuration changes, and those CreateAcls added
 * at run time, which DeleteAcls removes and which the file store keeps in `<dataDir>/acls.json` (owner-only, replaced
 * atomically) across restarts.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { type AclBinding, type AclBindingFilter, describeBinding, filterMatches, invalidBindingReason, type ResourceTypeCode, sameBinding } from "./acl-binding";
import type { AclSource } from "./acl-authorizer";

const FILE_NAME = "acls.json";

export interface DeletedAcls {
  /** Run-time bindings the filter removed. */
  readonly deleted: AclBinding[];
  /** Configured bindings it matched, which stay. */
  readonly configured: AclBinding[];
}

export class AclStore implements AclSource {
  private created: AclBinding[];
  /** Changes are saved one after another, in the order they were made. */
  private saving: Promise<void> = Promise.resolve();
  /** What bindingsOf answered, until the bindings change: every request asks it. */
  private readonly byType = new Map<number, AclBinding[]>();

  private constructor(
    private readonly configured: readonly AclBinding[],
    created: AclBinding[],
    private readonly file: string | null,
  ) {
    this.created = created;
  }

  /** With a data directory, the run-time bindings saved there come back. */
  static async open(configured: readonly AclBinding[], dataDir: string | null): Promise<AclStore> {
    const file = dataDir === null ? null : path.join(dataDir, FILE_NAME);
    return new AclStore(configured, file === null ? [] : await readSaved(file), file);
  }

  /** How many bindings are in force. */
  get size(): number {
    return this.configured.length + this.created.length;
  }

  bindingsOf(resourceType: ResourceTypeCode): readonly AclBinding[] {
    let bindings = this.byType.get(resourceType);
    if (bindings === undefined) {
      bindings = this.all().filter((binding) => binding.resourceType === resourceType);
      this.byType.set(resourceType, bindings);
    }
    return bindings;
  }

  matching(filter: AclBindingFilter): AclBinding[] {
    return this.all().filter((binding) => filterMatches(filter, binding));
  }

  /** Adds the bindings not yet in force; resolves once they are saved. */
  create(bindings: readonly AclBinding[]): Promise<void> {
    return this.change((created) => {
      const all = [...this.configured, ...created];
      const fresh = bindings.filter((binding, i) => !all.some((kept) => sameBinding(kept, binding)) && bindings.findIndex((other) => sameBinding(other, binding)) === i);
      return fresh.length === 0 ? created : [...created, ...fresh];
    });
  }

  /** Removes the run-time bindings each filter matches; resolves once that is saved. */
  async delete(filters: readonly AclBindingFilter[]): Promise<DeletedAcls[]> {
    let results: DeletedAcls[] = [];
    await this.change((created) => {
      results = filters.map((filter) => ({
        deleted: created.filter((binding) => filterMatches(filter, binding)),
        configured: this.configured.filter((binding) => filterMatches(filter, binding)),
      }));
      const gone = new Set(results.flatMap(({ deleted }) => deleted));
      return gone.size === 0 ? created : created.filter((binding) => !gone.has(binding));
    });
    return results;
  }

  private all(): AclBinding[] {
    return [...this.configured, ...this.created];
  }

  /** Applies `update` after the changes before it, saving its result before it is in force. */
  private change(update: (created: AclBinding[]) => AclBinding[]): Promise<void> {
    const step = this.saving.then(async () => {
      const next = update(this.created);
      if (next === this.created) return;
      if (this.file !== null) await writeSaved(this.file, next);
      this.created = next;
      this.byType.clear();
    });
    this.saving = step.catch(() => undefined);
    return step;
  }
}

async function readSaved(file: string): Promise<AclBinding[]> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const saved: unknown = JSON.parse(text);
  if (!Array.isArray(saved)) throw new Error(`${file} should hold an array of ACL bindings`);
  return saved.map((binding: AclBinding) => {
    const invalid = invalidBindingReason(binding);
    if (invalid) throw new Error(`${file}: ${describeBinding(binding)}: ${invalid}`);
    return binding;
  });
}

async function writeSaved(file: string, bindings: readonly AclBinding[]): Promise<void> {
  const temp = `${file}.tmp`;
  const handle = await fs.open(temp, "w", 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(bindings, null, 1)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(temp, file);
}
