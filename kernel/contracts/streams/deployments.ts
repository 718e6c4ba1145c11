/**
 * The lifecycle operators drive over REST: the topologies Sluice knows, and instances of them deployed,
 * paused, resumed and terminated at run time — decisions the streams runtime keeps across restarts.
 * Registered under STREAMS_DEPLOYMENTS_TOKEN by the streams runtime plugin.
 */
import type { Principal } from "../../http/auth/principal";
import { token } from "../token";
import type { ApplicationHandle } from "./runtime";
import type { ConfigValue, EventStreamDeclaration } from "./topology-provider";

export const STREAMS_DEPLOYMENTS_TOKEN = token<StreamsDeployments>("sluice.streams.Deployments");

/** One version of a topology provider. */
export interface TopologyVersion {
  name: string;
  version: string;
  description: string | null;
  /** The provider's own configuration, secrets hidden: the defaults of an instance deployed from it. */
  config: Readonly<Record<string, ConfigValue>>;
  eventStreams: readonly EventStreamDeclaration[];
  /** False when the provider is registered without an instance started at boot. */
  autostart: boolean;
}

export interface DeployRequest {
  topology: string;
  /** A version, or `latest` (the default). */
  version?: string;
  /** Must hold `application.id`; validated as `applications.<application.id>.*` keys, plus the provider's own keys. */
  config: Readonly<Record<string, unknown>>;
}

/**
 * Refusals are HttpErrors: 400 naming the field, 404 an unknown instance, 409 an id in use or an instance shutting
 * down.
 */
export interface StreamsDeployments {
  /** Sorted by name, then version (oldest first). */
  topologies(): TopologyVersion[];
  /**
   * Resolves once the new instance has started (joining its group), with its handle. The configuration is not
   * trusted (it never names modules, files or outside directories); `caller` (default: an admin, the program
   * itself) must be an admin to name registered code.
   */
  deploy(request: DeployRequest, caller?: Principal): Promise<ApplicationHandle>;
  /** Stops the instance and forgets it; `cleanup` also deletes its local state. */
  terminate(id: string, options: { cleanup: boolean; timeoutMs: number }): Promise<void>;
  pause(id: string): Promise<ApplicationHandle>;
  resume(id: string): Promise<ApplicationHandle>;
}
