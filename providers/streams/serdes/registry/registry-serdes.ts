/**
 * The schema registry serdes of one application, named like builtins (`avro`, `json_schema`, `protobuf`): one registry client per
 * application (its caches shared by every serde), and one serde per name and role, since a key's subject is not a
 * value's. Nothing is loaded until a registry serde is named, and `@confluentinc/schemaregistry` only then (see
 * confluent-package).
 */
import type { ConfigValue } from "../../../../kernel/config/config-schema";
import type { NamedCodeImplementations, NamedCodeKind, NamedCodeLookup } from "../../../../kernel/contracts/streams/named-code";
import type { Serde } from "../../../../kernel/contracts/streams/serde";
import { AVRO_FORMAT } from "./avro-format";
import { confluentPackage, type ConfluentPackage, type RegistryClient } from "./confluent-package";
import { jsonFormat } from "./json-format";
import { protobufFormat } from "./protobuf-format";
import { RegistrySerde, type SchemaFormat, type SerdeRole } from "./registry-serde";
import { registrySettings, type RegistrySettings } from "./registry-settings";

/** The registry serdes by name, each its format given the package, the settings and the application's registry client. */
const FORMATS: Readonly<Record<string, (pkg: ConfluentPackage, settings: RegistrySettings, client: RegistryClient) => SchemaFormat<unknown>>> = {
  avro: () => AVRO_FORMAT as unknown as SchemaFormat<unknown>,
  json_schema: (pkg, settings) => jsonFormat(settings.validateJson ? (schema, client) => pkg.jsonValidator(client, schema) : undefined) as SchemaFormat<unknown>,
  protobuf: (pkg, _settings, client) => protobufFormat(pkg.protobuf(client)) as unknown as SchemaFormat<unknown>,
};

export const REGISTRY_SERDE_NAMES = Object.keys(FORMATS);

export class RegistrySerdes {
  private readonly serdes = new Map<string, Serde<unknown>>();
  private client: RegistryClient | undefined;

  constructor(private readonly values: Readonly<Record<string, ConfigValue>>) {}

  /** The lookup of the serdes of one role: the registry serdes, then those `code` registers. */
  lookup(role: SerdeRole, code: NamedCodeLookup | undefined): NamedCodeLookup {
    return {
      find: <K extends NamedCodeKind>(kind: K, name: string): NamedCodeImplementations[K] | undefined => {
        if (kind === "serde" && Object.hasOwn(FORMATS, name)) return this.serde(name, role) as NamedCodeImplementations[K];
        return code?.find(kind, name);
      },
      names: (kind) => (kind === "serde" ? [...REGISTRY_SERDE_NAMES, ...(code?.names(kind) ?? [])] : (code?.names(kind) ?? [])),
    };
  }

  private serde(name: string, role: SerdeRole): Serde<unknown> {
    const id = `${name}/${role}`;
    let serde = this.serdes.get(id);
    if (serde === undefined) {
      const pkg = confluentPackage(name);
      const settings = registrySettings(this.values);
      if (settings.urls.length === 0) throw new Error(`the '${name}' serde needs a schema registry: set schema.registry.url, or run Sluice's own (schema.registry.enable)`);
      const client = (this.client ??= pkg.client({
        baseURLs: settings.urls,
        basicAuthCredentials: settings.basicAuth,
        bearerAuthCredentials: settings.bearerToken === undefined ? undefined : { credentialsSource: "STATIC_TOKEN", token: settings.bearerToken },
      }));
      serde = new RegistrySerde(FORMATS[name](pkg, settings, client), pkg, client, role, settings.strategies[role], settings.writing);
      this.serdes.set(id, serde);
    }
    return serde;
  }
}
