/**
 * Loads `@confluentinc/schemaregistry` (Confluent's registry client and wire format) the first time a registry serde is
 * named. It is an optional peer dependency of Sluice: its cloud-KMS dependencies weigh about 108 MB, which an
 * installation that never reads registry-framed topics should not carry. Only the client and serde modules are loaded,
 * not the package's index, which loads the AWS, Azure and Google KMS SDKs (seconds of startup).
 */
import type * as RegistryClientModule from "@confluentinc/schemaregistry/dist/schemaregistry-client";
import type * as SerdeModule from "@confluentinc/schemaregistry/dist/serde/serde";

export const CONFLUENT_PACKAGE = "@confluentinc/schemaregistry";

export interface ConfluentPackage {
  client: typeof RegistryClientModule;
  serde: typeof SerdeModule;
}

let loaded: ConfluentPackage | undefined;

/** The package, or an error naming the serde that needs it and how to install it. */
export function confluentPackage(serdeName: string): ConfluentPackage {
  if (loaded !== undefined) return loaded;
  try {
    loaded = {
      client: require(`${CONFLUENT_PACKAGE}/dist/schemaregistry-client`) as typeof RegistryClientModule,
      serde: require(`${CONFLUENT_PACKAGE}/dist/serde/serde`) as typeof SerdeModule,
    };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "MODULE_NOT_FOUND") throw error;
    throw new Error(`the '${serdeName}' serde needs the optional package ${CONFLUENT_PACKAGE}: install it next to Sluice (npm install ${CONFLUENT_PACKAGE})`);
  }
  return loaded;
}
