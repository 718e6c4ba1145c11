/**
 * Sluice's public entry point: `import { Sluice } from "sluice"`. Everything a program, a topology provider,
 * a plugin or a REST extension compiles against is exported here; the rest of the package is internal.
 */
export { Sluice, type SluiceOptions } from "./kernel/embedding/sluice";
export { PLUGIN_CONTRACT, type Plugin, type PluginContext, type KernelInfo, type ServiceDiscovery } from "./kernel/contracts/plugin";
export { REST_EXTENSION_CONTRACT, type RestExtension, type RestExtensionContext } from "./kernel/contracts/rest-extension";
export { CLI_COMMAND_CONTRACT, type CliCommand } from "./kernel/contracts/cli-command";
export { HEALTH_INDICATOR, type HealthIndicator } from "./kernel/contracts/health";
export { KAFKA_BOOTSTRAP, type KafkaBootstrap } from "./kernel/contracts/kafka-bootstrap";
export { CONFIG, KERNEL_INFO, LOGGER } from "./kernel/contracts/tokens";
export { STREAMS_RUNTIME_TOKEN } from "./kernel/contracts/streams/runtime";
export type { ApplicationRegistry } from "./kernel/contracts/streams/application-registry";
export type { SluiceConfig, FlatConfig, ConfigValue } from "./kernel/config/sluice-config";
export type { Logger, LogFields } from "./kernel/logger";
export { HttpError } from "./kernel/http/http-error";
export { jsonBody, type SluiceRequest } from "./kernel/http/request";
export type { RouteHandler, RouteRegistrar } from "./kernel/http/route-registry";
export type { RouteOptions } from "./kernel/http/route-registry";
export { ROLES, type Role, type Principal } from "./kernel/http/auth/principal";
export * from "./providers/streams/index";
