/** What an application is: a named, versioned topology with its default configuration. */
import type { ConfigValue } from "../../config/config-schema";
import type { StreamsBuilder } from "./dsl";
import { token } from "../token";

export const TOPOLOGY_PROVIDER_CONTRACT = token<TopologyProvider>("sluice.streams.TopologyProvider");

export type { ConfigValue };

/** What happens when an event stream's queue for a subscriber is full. */
export type EventStreamLimitHandler = "drop_head" | "log_and_continue" | "throw";

export interface EventStreamDeclaration {
  type: string;
  queueSize: number;
  limitHandler: EventStreamLimitHandler;
}

export interface TopologyContext {
  readonly applicationId: string;
  /** The application's effective configuration (defaults, provider config, overrides merged). */
  readonly config: Readonly<Record<string, ConfigValue>>;
}

export interface TopologyProvider {
  readonly name: string;
  readonly version: string;
  readonly description?: string;
  /**
   * Must hold at least `application.id`. A deploy request (untrusted) may set these keys: Sluice refuses values that
   * name a module (`module#export`) or hold a `${file:}`/`${env:}` reference, but a topology must never treat a value
   * as a file or directory path, nor as code other than a registered name.
   */
  readonly config: Readonly<Record<string, ConfigValue>>;
  readonly eventStreams?: readonly EventStreamDeclaration[];
  /** False: listed in the topology catalogue and deployable over REST, but no instance starts at boot. Default true. */
  readonly autostart?: boolean;
  topology(builder: StreamsBuilder, context: TopologyContext): void;
}
