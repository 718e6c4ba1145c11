/**
 * Sluice's public entry point: `import { Sluice } from "sluice"`. Everything a program, a topology provider,
 * a plugin or a REST extension compiles against is exported here — each contract's id with its types, and the
 * helpers the built-in plugins answer with; the rest of the package (the streams runtime itself included) is
 * internal.
 */
export { Sluice, type SluiceOptions } from "./kernel/embedding/sluice";
export { PLUGIN_CONTRACT, optional, type Plugin, type PluginContext, type KernelInfo, type OptionalDependency, type ServiceDiscovery } from "./kernel/contracts/plugin";
export { token, type Token } from "./kernel/contracts/token";
export type { ComponentRegistry } from "./kernel/components/component-registry";
export { REST_EXTENSION_CONTRACT, type RestExtension, type RestExtensionContext } from "./kernel/contracts/rest-extension";
export { CLI_COMMAND_CONTRACT, type CliCommand } from "./kernel/contracts/cli-command";
export {
  QUERY_ENGINE_CONTRACT,
  concatPartitions,
  isStreamedAnswer,
  type QueryAnswer,
  type QueryArguments,
  type QueryDefinition,
  type QueryEngine,
  type QueryParameter,
  type QueryParameterKind,
  type QueryRecord,
} from "./kernel/contracts/query-engine";
export {
  INTERACTIVE_QUERIES,
  type InteractiveQueries,
  type StoreQuery,
  type StoreQueryFailure,
  type StoreQueryOptions,
  type StoreQueryRecord,
  type StoreQueryResult,
  type StoreQueryStatus,
  type StoreQuerySuccess,
} from "./kernel/contracts/interactive-queries";
export { METRICS_FORMATTER_CONTRACT, DEFAULT_METRICS_FORMAT, type MetricsFormatter } from "./kernel/contracts/metrics-formatter";
export {
  SERIALIZER_MODULE_CONTRACT,
  JSON_RENDERER,
  UnrepresentableValueError,
  type JsonRenderer,
  type JsonValue,
  type SerializationContext,
  type SerializerModule,
} from "./kernel/contracts/json-serializer";
export { HEALTH_INDICATOR, type HealthIndicator } from "./kernel/contracts/health";
export { KAFKA_BOOTSTRAP, resolveBootstrapServers, type KafkaBootstrap } from "./kernel/contracts/kafka-bootstrap";
export { CONFIG, KERNEL_INFO, LOGGER } from "./kernel/contracts/tokens";
export { STREAMS_RUNTIME_TOKEN } from "./kernel/contracts/streams/runtime";
export { STREAMS_DEPLOYMENTS_TOKEN, type DeployRequest, type StreamsDeployments, type TopologyVersion } from "./kernel/contracts/streams/deployments";
export type { ApplicationRegistry } from "./kernel/contracts/streams/runtime";
export { ApplicationLookup } from "./kernel/contracts/streams/application-lookup";
export { topologyJson } from "./kernel/contracts/streams/topology-json";
export type { SluiceConfig, FlatConfig } from "./kernel/config/sluice-config";
export { configKeys, configSection, type ConfigKeys, type ConfigSection, type ConfigType, type ConfigValue, type KeySpec, type KeyValue } from "./kernel/config/config-schema";
export type { ConfigReader } from "./kernel/config/config-reader";
export { SERVER_CONFIG, LOG_CONFIG, PLUGINS_CONFIG } from "./kernel/config/kernel-config";
export type { Logger, LogFields } from "./kernel/logger";
export { HttpError, badRequest, notFound, conflict, type ErrorBody } from "./kernel/http/http-error";
export { JSON_CONTENT_TYPE, sendError, sendJson, sendText } from "./kernel/http/responses";
export { jsonBody, type SluiceRequest } from "./kernel/http/request";
export type { RouteHandler, RouteRegistrar } from "./kernel/http/route-registry";
// The streams face without the runtime the kernel's streams plugin drives.
export { TopologyTestDriver, type TestDriverOptions } from "./providers/streams/testing/topology-test-driver";
export { TestRecord, type PipedRecord } from "./providers/streams/testing/test-record";
export { TestInputTopic, TestOutputTopic, type InputTopicOptions } from "./providers/streams/testing/test-topics";
export { Record, RecordHeaders } from "./providers/streams/processor/record-values";
export { Stores } from "./providers/streams/processor/stores";
export {
  FailOnInvalidTimestamp,
  LogAndSkipOnInvalidTimestamp,
  UsePartitionTimeOnInvalidTimestamp,
  WallclockTimestampExtractor,
} from "./providers/streams/processor/timestamp-extractors";
export { BUILTIN_SERDES, bytesSerde, doubleSerde, intSerde, jsonSerde, longSerde, stringSerde } from "./providers/streams/serdes/builtin-serdes";
export { sessionWindowedSerde, timeWindowedSerde } from "./providers/streams/serdes/windowed-serde";
export { Branched } from "./providers/streams/topology/values/branched";
export { BufferConfig, Suppressed } from "./providers/streams/topology/values/suppressed";
export { EmitStrategy, SessionWindows, SlidingWindows, TimeWindows } from "./providers/streams/topology/values/windows";
export { JoinWindows } from "./providers/streams/topology/values/join-windows";
export { StreamJoined } from "./providers/streams/topology/values/stream-joined";
export type { Serde } from "./kernel/contracts/streams/serde";
export type * from "./kernel/contracts/streams/dsl";
export type * from "./kernel/contracts/streams/processor";
export type * from "./kernel/contracts/streams/stores";
export { PUT_RETURN_CODE_NOT_PUT, PUT_RETURN_CODE_VALID_TO_UNDEFINED } from "./kernel/contracts/streams/stores";
export type * from "./kernel/contracts/streams/topology-provider";
export { TOPOLOGY_PROVIDER_CONTRACT } from "./kernel/contracts/streams/topology-provider";
export { NAMED_CODE_CONTRACT, type NamedCode, type NamedCodeKind, type NamedSerde, type NamedLevelDbConfigSetter, type NamedTokenProvider, type OAuthBearerTokenAnswer } from "./kernel/contracts/streams/named-code";
export type * from "./kernel/contracts/streams/runtime";
export type { RouteOptions, RouteListing } from "./kernel/http/route-registry";
export type { RouteSpec, ParameterSpec, QueryParameterSpec, BodySpec, ResponseSpec } from "./kernel/http/route-spec";
export { objectSchema, arrayOf, type JsonSchema, type JsonType } from "./kernel/http/json-schema";
export { ROUTE_CATALOG, type RouteCatalog } from "./kernel/contracts/route-catalog";
export { ROLES, type Role, type Principal } from "./kernel/http/auth/principal";
