/**
 * The code registered by descriptors (`sluice.streams.NamedCode`), by kind and name: what configuration, and
 * above all configuration that arrives over REST, may refer to by name.
 */
import { NAMED_CODE_KINDS, type NamedCode, type NamedCodeImplementations, type NamedCodeKind, type NamedCodeLookup } from "../../../kernel/contracts/streams/named-code";
import { StartupError } from "../../../kernel/errors";
import { loadModuleExport, namesModule } from "./module-export";

const NAME = /^[A-Za-z0-9._-]{1,100}$/;

export class NamedCodeRegistry implements NamedCodeLookup {
  private readonly byKind = new Map<NamedCodeKind, Map<string, { code: NamedCode; owner: string }>>();

  /** A registration that is not one, or a second one of a kind and name, stops startup naming the descriptor lines. */
  constructor(registrations: readonly { name: string; instance: unknown }[] = []) {
    for (const { name: owner, instance } of registrations) {
      const code = instance as Partial<NamedCode> | null;
      if (!code || !NAMED_CODE_KINDS.includes(code.kind as NamedCodeKind) || typeof code.name !== "string" || !NAME.test(code.name) || code.implementation === undefined) {
        throw new StartupError(`${owner} is not a sluice.streams.NamedCode: { kind: one of ${NAMED_CODE_KINDS.join(", ")}, name: 1 to 100 of a-z A-Z 0-9 . _ -, implementation }`);
      }
      checkShape(code as NamedCode, owner);
      const kind = this.byKind.get(code.kind!) ?? new Map();
      const earlier = kind.get(code.name);
      if (earlier) throw new StartupError(`${owner} and ${earlier.owner} both register ${code.kind} '${code.name}'`);
      kind.set(code.name, { code: code as NamedCode, owner });
      this.byKind.set(code.kind!, kind);
    }
  }

  find<K extends NamedCodeKind>(kind: K, name: string): NamedCodeImplementations[K] | undefined {
    return this.byKind.get(kind)?.get(name)?.code.implementation as NamedCodeImplementations[K] | undefined;
  }

  names(kind: NamedCodeKind): string[] {
    return [...(this.byKind.get(kind)?.keys() ?? [])].sort();
  }
}

function checkShape(code: NamedCode, owner: string): void {
  const { implementation } = code;
  const fits =
    code.kind === "serde"
      ? typeof implementation === "object" && implementation !== null && typeof code.implementation.serialize === "function" && typeof code.implementation.deserialize === "function"
      : typeof implementation === "function";
  if (!fits) throw new StartupError(`${owner} registers ${code.kind} '${code.name}' whose implementation is not ${code.kind === "serde" ? "a serde (serialize, deserialize)" : "a function"}`);
}

/** What a key that takes code names: a registration of `kind`, or (trusted configuration only) `module#export`. */
export function namedCode<K extends NamedCodeKind>(kind: K, value: string, code: NamedCodeLookup | undefined): NamedCodeImplementations[K] {
  const registered = code?.find(kind, value);
  if (registered !== undefined) return registered;
  if (namesModule(value)) return loadModuleExport(value) as NamedCodeImplementations[K];
  const names = code?.names(kind) ?? [];
  throw new Error(`no ${kind} is registered as '${value}' (registered: ${names.length > 0 ? names.join(", ") : "none"}), and it is not module#export`);
}
