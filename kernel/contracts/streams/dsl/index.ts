/**
 * The typed streams DSL, shaped after Kafka Streams' `kstream` package, one file per concept. A topology provider
 * receives a `StreamsBuilder` and describes its topology with it; the runtime compiles and runs the result.
 */
export type { KeyValue } from "../stores";
export type * from "./consumed";
export type * from "./global-ktable";
export type * from "./grouped";
export type * from "./join-windows";
export type * from "./joined";
export type * from "./kstream";
export type * from "./materialized";
export type * from "./produced";
export type * from "./repartitioned";
export type * from "./serde-ref";
export type * from "./stream-joined";
export type * from "./streams-builder";
export type * from "./suppressed";
export type * from "./table-joined";
export type * from "./value-transformer";
export type * from "./windows";
