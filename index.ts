/**
 * Sluice's public entry point: `import { Sluice } from "sluice"`. Everything a program, a topology provider, a plugin
 * or a REST extension compiles against is exported here, and nothing else is public: the built-in plugins import
 * only this (the architecture test checks it), so a plugin copied from them as a template compiles in any package.
 * The streams runtime itself, the HTTP server, the configuration loader and the component container stay internal.
 *
 * Sections, in order:
 *  1. Embedding Sluice in a program.
 *  2. Plugins: the contract, the component registry, the components the kernel registers, startup errors.
 *  3. Configuration: declaring a section, reading it.
 *  4. Logging.
 *  5. HTTP: routes and their specs, JSON schemas, requests, responses, errors, roles and peer requests.
 *  6. The other contracts a package may implement or use: REST extensions, CLI commands, query engines,
 *     interactive queries, metrics formatters, JSON serializers, health indicators, process metrics.
 *  7. The streams runtime's contracts, as plugins use them: applications, deployments, the bootstrap servers.
 *  8. Writing topologies: the DSL and Processor API types, stores, serdes, timestamp extractors, named code.
 *  9. Testing topologies: TopologyTestDriver and its topics.
 */

// 1. Embedding Sluice in a program.
export { Sluice, type SluiceOptions } from "./kernel/embedding/sluice";
/** Where this Sluice is installed, and its version (package.json). */
export { SLUICE_ROOT, SLUICE_VERSION } from "./kernel/kernel";

// 2. Plugins.
export { PLUGIN_CONTRACT, optional, type Plugin, type PluginContext, type KernelInfo, type OptionalDependency, type ServiceDiscovery } from "./kernel/contracts/plugin";
export { token, type Token } from "./kernel/contracts/token";
export type { ComponentRegistry } from "./kernel/components/component-registry";
export { CONFIG, KERNEL_INFO, LOGGER, LOG_LEVEL } from "./kernel/contracts/tokens";
export { StartupError } from "./kernel/errors";

// 3. Configuration.
export type { SluiceConfig, FlatConfig } from "./kernel/config/sluice-config";
// A key's value type; as KeyValue it hid the stores' KeyValue<K, V> that topologies and query engines use.
export { configKeys, configSection, type ConfigKeys, type ConfigSection, type ConfigType, type ConfigValue, type KeySpec, type KeyValue as ConfigKeyValue } from "./kernel/config/config-schema";
export type { ConfigReader } from "./kernel/config/config-reader";

// 4. Logging.
export { LOG_LEVELS, type LogLevel, type LogLevelSetting, type Logger, type LogFields } from "./kernel/logger";

// 5. HTTP.
export type { RouteHandler, RouteRegistrar, RouteOptions, RouteListing } from "./kernel/http/route-registry";
export { WILDCARD_PARAMETER, pathParameterNames, type RouteSpec, type ParameterSpec, type QueryParameterSpec, type BodySpec, type ResponseSpec } from "./kernel/http/route-spec";
export { objectSchema, arrayOf, schemaViolation, type JsonSchema, type JsonType } from "./kernel/http/json-schema";
export { jsonBody, type SluiceRequest } from "./kernel/http/request";
export { JSON_CONTENT_TYPE, sendError, sendJson, sendText } from "./kernel/http/responses";
export { HttpError, badRequest, notFound, conflict, ERROR_BODY_SCHEMA, type ErrorBody } from "./kernel/http/http-error";
export { ROUTE_CATALOG, type RouteCatalog } from "./kernel/contracts/route-catalog";
export { ROLES, isRole, type Role, type Principal } from "./kernel/http/auth/principal";
/** The users file of `server.auth.users.file`, as `sluice passwd` writes it. */
export { isUserName, writeUser } from "./kernel/http/auth/users-file";
export { hashPassword } from "./kernel/http/auth/password-hash";
/** Requests one instance makes of another (forwarded queries), and the header that proves them. */
export { PEER_TRANSPORT, type PeerTransport, type PeerRequestProof } from "./kernel/contracts/peer-transport";
export { PEER_HEADER } from "./kernel/http/auth/peer-proof";
export { HTTP_AUTHENTICATION, type HttpAuthentication } from "./kernel/contracts/http-authentication";

// 6. The other contracts.
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
export { METRICS_FORMATTER_CONTRACT, DEFAULT_METRICS_FORMAT, type ApplicationMetrics, type MetricsFormatter } from "./kernel/contracts/metrics-formatter";
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
export { PROCESS_METRICS, type ProcessMetrics, type EventStreamFigures } from "./kernel/contracts/process-metrics";

// 7. The streams runtime's contracts.
export { STREAMS_RUNTIME_TOKEN, APPLICATION_STATES } from "./kernel/contracts/streams/runtime";
export type * from "./kernel/contracts/streams/runtime";
export { APPLICATION_LOOKUP, type ApplicationLookup } from "./kernel/contracts/streams/application-lookup";
export { STREAMS_DEPLOYMENTS_TOKEN, type DeployRequest, type StreamsDeployments, type TopologyVersion } from "./kernel/contracts/streams/deployments";
export { topologyJson, TOPOLOGY_SCHEMA } from "./kernel/contracts/streams/topology-json";
export { KAFKA_BOOTSTRAP, KAFKA_CLUSTER, resolveBootstrapServers, type KafkaBootstrap, type KafkaCluster } from "./kernel/contracts/kafka-bootstrap";
export { KAFKA_TOPIC_LOGS, type KafkaTopicLogs, type LogRecord, type TopicLog, type TopicLogOptions } from "./kernel/contracts/kafka-topic-log";
export { BUILTIN_SCHEMA_REGISTRY, type BuiltInSchemaRegistry } from "./kernel/contracts/schema-registry";

// 8. Writing topologies.
export type * from "./kernel/contracts/streams/dsl";
export type * from "./kernel/contracts/streams/processor";
export type * from "./kernel/contracts/streams/stores";
export { STORE_TYPES, PUT_RETURN_CODE_NOT_PUT, PUT_RETURN_CODE_VALID_TO_UNDEFINED } from "./kernel/contracts/streams/stores";
export type * from "./kernel/contracts/streams/topology-provider";
export { TOPOLOGY_PROVIDER_CONTRACT } from "./kernel/contracts/streams/topology-provider";
export type { Serde } from "./kernel/contracts/streams/serde";
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
export { Joined } from "./providers/streams/topology/values/joined";
export { NAMED_CODE_CONTRACT, type NamedCode, type NamedCodeKind, type NamedSerde, type NamedLevelDbConfigSetter, type NamedTokenProvider, type OAuthBearerTokenAnswer } from "./kernel/contracts/streams/named-code";

// 9. Testing topologies (the streams face without the runtime the kernel's streams plugin drives).
export { TopologyTestDriver, type TestDriverOptions } from "./providers/streams/testing/topology-test-driver";
export { TestRecord, type PipedRecord } from "./providers/streams/testing/test-record";
export { TestInputTopic, TestOutputTopic, type InputTopicOptions } from "./providers/streams/testing/test-topics";
