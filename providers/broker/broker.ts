/** The embedded broker: storage, group coordinator, API handlers and the TCP server, wired together. */
import { createHash } from "node:crypto";
import { resolve } from "node:path";
import { DefaultGroupCoordinator } from "./group/default-group-coordinator";
import { ConsumerProtocolCoordinator } from "./group/consumer-protocol-coordinator";
import { offsetCommitAdmission } from "./group/offset-commit-admission";
import { TransactionCoordinator } from "./transactions/transaction-coordinator";
import { AppendSignal } from "./handlers/append-signal";
import { buildHandlerTable } from "./handlers/handler-table";
import { TopicAdmin } from "./handlers/topic-admin";
import { BrokerServer } from "./server/broker-server";
import type { BrokerTls } from "./server/broker-tls";
import { type ComponentLogger, silentLogger } from "../../kernel/logger";
import { AclAuthorizer, type AuthorizerSettings } from "./acl/acl-authorizer";
import type { AclBinding } from "./acl/acl-binding";
import { AclStore } from "./acl/acl-store";
import { defaultMaxConnections } from "./server/open-file-limit";
import { RequestDispatcher } from "./server/request-dispatcher";
import { SaslServer, type BrokerSasl } from "./sasl/sasl-server";
import { FileLogStore } from "./storage/file-log-store";
import { isStoredConsumerGroup, type LogStore, type LogStoreOptions, type StoredGroup, type StoredMembership } from "./storage/log-store";
import { MemoryLogStore } from "./storage/memory-log-store";
import { ReadBuffers } from "./storage/read-buffers";

export type { BrokerTls };

/** How to run the embedded broker; every field has a default. */
export interface BrokerOptions {
  /** Address to listen on; default "127.0.0.1". */
  listener?: string;
  /** Default 9092; 0 picks an ephemeral port. */
  port?: number;
  /** Default "file"; "memory" keeps nothing across restarts (tests). */
  storage?: "file" | "memory";
  /** Where the file store keeps topics and committed offsets; required for file storage. */
  dataDir?: string;
  /** Create unknown topics a client asks Metadata for; default true. */
  autoCreateTopics?: boolean;
  /** Partitions of auto-created topics and of CreateTopics asking for the default; default 1. */
  numPartitions?: number;
  /** Larger request frames close their connection; default 100 MiB. */
  maxRequestBytes?: number;
  /** Larger frames close a SASL connection that has not authenticated yet; default 512 KiB (Kafka's sasl.server.max.receive.size). */
  saslMaxReceiveBytes?: number;
  /** Connections past this many are closed as they arrive; default half the open-file limit, null: unbounded. */
  maxConnections?: number | null;
  /** Connections from one address past this many are closed as they arrive; default null: unbounded. */
  maxConnectionsPerIp?: number | null;
  /** Connections idle this long are closed; default 10 minutes, 0: never. */
  connectionsMaxIdleMs?: number;
  /** CreateTopics, CreatePartitions and auto-creation stop at this many partitions in all; default 4000, null: unbounded. */
  maxPartitions?: number | null;
  /** Default retention of a topic by age; default 7 days, null keeps batches forever. */
  retentionMs?: number | null;
  /** Default retention of a partition by size; default null (unbounded). */
  retentionBytes?: number | null;
  /** Size at which the file store rolls a new segment; default 128 MiB. */
  segmentBytes?: number;
  /**
   * The file store syncs (fsync) a partition's log once this many records are written to it and not synced, before
   * answering the produce requests that reached the count (Kafka's log.flush.interval.messages); 1 syncs every
   * request's batches. Default null: never, the OS writes back, as Kafka's default.
   */
  flushMessages?: number | null;
  /** How often retention is enforced; default 5 minutes. */
  retentionCheckIntervalMs?: number;
  /** How long a new group waits for more members before its first rebalance; the coordinator's default when omitted. */
  initialRebalanceDelayMs?: number;
  /** The consumer group protocol (KIP-848): a member not heard from this long is removed (Kafka's group.consumer.session.timeout.ms); default 45 s. */
  consumerGroupSessionTimeoutMs?: number;
  /** How often members of the consumer group protocol heartbeat (Kafka's group.consumer.heartbeat.interval.ms); default 5 s. */
  consumerGroupHeartbeatIntervalMs?: number;
  /** The consumer group protocol's server-side assignors, by name (`uniform`, `range`); the first is the default (Kafka's group.consumer.assignors). */
  consumerGroupAssignors?: string[];
  /** The longest transaction timeout a producer may ask for (Kafka's transaction.max.timeout.ms); default 15 minutes. */
  transactionMaxTimeoutMs?: number;
  /** How often transactions past their timeout are looked for and aborted; default 10 s (Kafka's default). */
  transactionTimeoutCheckIntervalMs?: number;
  /** Serve TLS (security.protocol=SSL) with this certificate; client certificates are required when `ca` is given. */
  tls?: BrokerTls;
  /** Authenticate every connection with SASL first: SASL_PLAINTEXT, or SASL_SSL with `tls`. */
  sasl?: BrokerSasl;
  /** Check every request against ACLs; without it, every client may do everything. */
  authorizer?: BrokerAuthorizer;
  /**
   * Versions to advertise and serve per API, by name ({ Fetch: "4-6" }), narrowed from those the broker implements, or
   * "none" to leave an API out: a broker that stands for an older or a newer Kafka in tests of clients' version
   * negotiation. No setting sets it.
   */
  apiVersions?: Readonly<Record<string, string>>;
  logger?: ComponentLogger;
}

/** Plain data, as the rest of the options: they cross into the broker's worker thread. */
export interface BrokerAuthorizer extends AuthorizerSettings {
  /** The ACLs of the configuration; those CreateAcls adds are kept in the data directory. */
  acls: AclBinding[];
}

type OptionalBrokerOptions = "dataDir" | "initialRebalanceDelayMs" | "consumerGroupSessionTimeoutMs" | "consumerGroupHeartbeatIntervalMs" | "consumerGroupAssignors" | "transactionMaxTimeoutMs" | "transactionTimeoutCheckIntervalMs" | "tls" | "sasl" | "apiVersions" | "authorizer";
export type ResolvedBrokerOptions = Required<Omit<BrokerOptions, OptionalBrokerOptions>> & Pick<BrokerOptions, OptionalBrokerOptions>;

export interface RunningBroker {
  /** The address clients connect to. */
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

const DEFAULTS: ResolvedBrokerOptions = {
  listener: "127.0.0.1",
  port: 9092,
  storage: "file",
  autoCreateTopics: true,
  numPartitions: 1,
  maxRequestBytes: 100 * 1024 * 1024,
  saslMaxReceiveBytes: 512 * 1024,
  maxConnections: null,
  maxConnectionsPerIp: null,
  connectionsMaxIdleMs: 10 * 60 * 1000,
  maxPartitions: 4000,
  retentionMs: 7 * 24 * 60 * 60 * 1000,
  retentionBytes: null,
  segmentBytes: 128 * 1024 * 1024,
  flushMessages: null,
  retentionCheckIntervalMs: 5 * 60 * 1000,
  logger: silentLogger,
};

const WILDCARD_LISTENERS = new Set(["", "0.0.0.0", "::"]);
/** Memory of written fetch responses kept for the next segment reads. */
const READ_BUFFERS_FREE_BYTES = 16 * 1024 * 1024;

export class Broker implements RunningBroker {
  private retentionTimer: NodeJS.Timeout | null = null;
  private closing: Promise<void> | null = null;

  private constructor(
    private readonly options: ResolvedBrokerOptions,
    private readonly store: LogStore,
    private readonly coordinator: DefaultGroupCoordinator,
    private readonly consumerGroups: ConsumerProtocolCoordinator,
    private readonly transactions: TransactionCoordinator,
    private readonly appends: AppendSignal,
    private readonly server: BrokerServer,
  ) {}

  static async start(given: BrokerOptions = {}): Promise<Broker> {
    const options = withDefaults(given);
    const readBuffers = new ReadBuffers(READ_BUFFERS_FREE_BYTES);
    const store = createStore(options, readBuffers);
    await store.open();
    const saveGroup = (group: StoredMembership) =>
      void store.offsets.saveGroup(group).catch((error: unknown) => options.logger.warn("could not store a group's membership", { groupId: group.groupId, error: String(error) }));
    // The two protocols' coordinators share the group ids: each asks the other before it makes a group.
    const consumerGroups: ConsumerProtocolCoordinator = new ConsumerProtocolCoordinator({
      topics: () => store.topics(),
      classicGroups: { stateOf: (groupId) => coordinator.stateOf(groupId), remove: (groupId) => coordinator.remove(groupId) },
      sessionTimeoutMs: options.consumerGroupSessionTimeoutMs,
      heartbeatIntervalMs: options.consumerGroupHeartbeatIntervalMs,
      assignors: options.consumerGroupAssignors,
      saveGroup,
      logger: options.logger,
    });
    const coordinator = new DefaultGroupCoordinator({ logger: options.logger, initialRebalanceDelayMs: options.initialRebalanceDelayMs, consumerGroups, saveGroup });
    const stored = store.offsets.storedGroups();
    consumerGroups.load(stored.filter(isStoredConsumerGroup));
    coordinator.loadGroups(
      store.offsets.groups(),
      stored.filter((group): group is StoredGroup => !isStoredConsumerGroup(group)),
    );
    const admitOffsetCommit = offsetCommitAdmission(coordinator, consumerGroups);
    let transactions: TransactionCoordinator;
    try {
      transactions = await TransactionCoordinator.start({
        store,
        groups: { validateOffsetCommit: (member) => admitOffsetCommit(member, null) },
        logger: options.logger,
        maxTimeoutMs: options.transactionMaxTimeoutMs,
        timeoutCheckIntervalMs: options.transactionTimeoutCheckIntervalMs,
      });
    } catch (error) {
      coordinator.close();
      consumerGroups.close();
      await store.close();
      throw error;
    }
    const appends = new AppendSignal(store);
    const topics = new TopicAdmin(store, options);
    let server: BrokerServer;
    try {
      const acls = options.authorizer && (await AclStore.open(options.authorizer.acls, options.storage === "file" ? options.dataDir! : null));
      const services = { store, coordinator, consumerGroups, transactions, appends, topics, clusterId: clusterIdOf(options), config: options, logger: options.logger, acls };
      const authorization = acls && { authorizer: new AclAuthorizer(options.authorizer!, acls), topicExists: (name: string) => topics.exists(name), autoCreateTopics: options.autoCreateTopics };
      if (acls && acls.size === 0 && options.authorizer!.superUsers.length === 0 && !options.authorizer!.allowEveryoneIfNoAclFound) {
        options.logger.warn("the broker checks ACLs and has none and no super user: every client is refused until broker.acls or broker.super.users name some");
      }
      const sasl = options.sasl && (await SaslServer.start(options.sasl, options.logger));
      server = new BrokerServer(new RequestDispatcher(buildHandlerTable(services, { ...options, authorization })), {
        ...options,
        sasl,
        written: (frames) => readBuffers.giveBack(frames),
      });
      await server.listen();
    } catch (error) {
      transactions.close();
      coordinator.close();
      consumerGroups.close();
      await store.close();
      throw error;
    }
    const broker = new Broker(options, store, coordinator, consumerGroups, transactions, appends, server);
    broker.scheduleRetention();
    options.logger.info("broker listening", {
      host: broker.host,
      port: broker.port,
      storage: options.storage,
      securityProtocol: securityProtocolOf(options),
      authorizer: options.authorizer ? "acl" : "none",
    });
    return broker;
  }

  get host(): string {
    return WILDCARD_LISTENERS.has(this.options.listener) ? "127.0.0.1" : this.options.listener;
  }

  get port(): number {
    return this.server.port;
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    if (this.retentionTimer) clearInterval(this.retentionTimer);
    this.appends.close();
    this.transactions.close();
    this.coordinator.close();
    this.consumerGroups.close();
    await this.server.close();
    await this.store.close();
  }

  private scheduleRetention(): void {
    let running = false;
    this.retentionTimer = setInterval(() => {
      if (running) return;
      running = true;
      this.store
        .enforceRetention(Date.now())
        .catch((error: unknown) => this.options.logger.error("enforcing retention failed", { error }))
        .finally(() => {
          running = false;
        });
    }, this.options.retentionCheckIntervalMs);
    this.retentionTimer.unref();
  }
}

function securityProtocolOf({ tls, sasl }: ResolvedBrokerOptions): string {
  return `${sasl ? "SASL_" : ""}${tls ? "SSL" : "PLAINTEXT"}`;
}

function withDefaults(given: BrokerOptions): ResolvedBrokerOptions {
  const defined = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
  const options: ResolvedBrokerOptions = { ...DEFAULTS, maxConnections: defaultMaxConnections(), ...defined };
  if (options.storage === "file" && !options.dataDir) throw new Error("the broker's file storage needs a dataDir");
  return options;
}

function createStore(options: ResolvedBrokerOptions, readBuffers: ReadBuffers): LogStore {
  const storeOptions: LogStoreOptions & { logger: ComponentLogger } = {
    readBuffers,
    dataDir: options.dataDir ?? "",
    segmentBytes: options.segmentBytes,
    flushMessages: options.flushMessages,
    defaultRetentionMs: options.retentionMs,
    defaultRetentionBytes: options.retentionBytes,
    logger: options.logger,
  };
  return options.storage === "memory" ? new MemoryLogStore(storeOptions) : new FileLogStore(storeOptions);
}

/** Stable for a data directory, so clients that remember the cluster id see the same cluster after a restart. */
function clusterIdOf(options: ResolvedBrokerOptions): string {
  const identity = options.storage === "file" ? `file:${resolve(options.dataDir!)}` : "memory";
  return createHash("sha256").update(`sluice-broker:${identity}`).digest("base64url").slice(0, 22);
}
