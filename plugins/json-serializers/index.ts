/** Sluice's built-in JSON serializer modules, each listed in META-INF/services/sluice.json.SerializerModule. */
export { BigIntModule } from "./bigint-module";
export { BufferModule } from "./buffer-module";
export { CollectionsModule } from "./collections-module";
export { DateModule } from "./date-module";
export { WindowedKeyModule } from "./windowed-key-module";
