/**
 * The keys the streams runtime declares: `streams.<key>` sets them for every application,
 * `applications.<application.id>.<key>` for one; a topology provider's own config sits between the two.
 */
import { ConfigReader } from "../../kernel/config/config-reader";
import { configKeys, configSection, type ConfigKeys, type ConfigValue } from "../../kernel/config/config-schema";
import { coerceValue } from "../../kernel/config/config-validation";
import type { NamedCodeLookup } from "../../kernel/contracts/streams/named-code";
import { COMPRESSION_TYPES } from "../kafka-client";

/** `upgrade.from` values of Kafka Streams versions before cooperative rebalancing (2.4): the group rebalances eagerly. */
const EAGER_REBALANCE_VERSIONS = ["0.10.0", "0.10.1", "0.10.2", "0.11.0", "1.0", "1.1", "2.0", "2.1", "2.2", "2.3"] as const;
const COOPERATIVE_REBALANCE_VERSIONS = ["2.4", "2.5", "2.6", "2.7", "2.8", "3.0", "3.1", "3.2", "3.3", "3.4", "3.5", "3.6", "3.7", "3.8", "3.9", "4.0", "4.1", "4.2", "4.3"] as const;

const STRATEGY_DOC = "`topic` (`<topic>-key` / `<topic>-value`, the default), `record` (the record's name: an Avro record's full name, a JSON schema's `title`, the full name of the Protobuf message written) or `topic-record` (`<topic>-<record name>`); Confluent's class names (`io.confluent.kafka.serializers.subject.TopicNameStrategy`, …) are taken too. `record` and `topic-record` take the name from the schema the topology gives the serde (`{ serde: \"avro\", schema }`): a serde named alone, or given a schema that names no record, stops the task where it writes, naming this key.";

/** The settings of the schema registry serdes (serdes/registry), under Kafka's names. */
const REGISTRY_SERDE_KEYS = configKeys({
  "schema.registry.url": { type: "string", default: "", doc: "Schema registry of the `avro`, `json_schema` and `protobuf` serdes: a Confluent-compatible REST URL (several, comma-separated, are tried in turn). Empty: the registry built into Sluice (`schema.registry.enable`), at `http://<server>/schema-registry`." },
  "basic.auth.credentials.source": { type: "string", default: "", doc: "Where the registry's basic-auth credentials come from: `USER_INFO` (`basic.auth.user.info`; empty means it) or `URL` (`http://user:password@host`)." },
  "basic.auth.user.info": { type: "string", default: "", doc: "`user:password` for the registry's basic auth (hidden in `/config`, logs and errors; `${env:NAME}` or `${file:PATH}`)." },
  "bearer.auth.token": { type: "string", default: "", doc: "A static bearer token sent to the registry (hidden in `/config`, logs and errors; `${env:NAME}` or `${file:PATH}`)." },
  "auto.register.schemas": { type: "boolean", default: false, doc: "A registry serde (`avro`, `json_schema`, `protobuf`) given the schema it writes (`{ serde: \"avro\", schema }`) registers it under the topic's subject before a task's first record, once; a refusal (an incompatible schema) stops the task naming the subject and the registry's reason. A serde given no schema has none to register (a JavaScript value carries none): `true` then stops the task where it writes, naming this key. Kafka's serializers default to `true`; Sluice keeps `false`, so that a topology without schemas writes with the registered ones." },
  "use.latest.version": { type: "boolean", default: true, doc: "Without auto-registration, the registry serdes (`avro`, `json_schema`, `protobuf`) write with the latest version of the subject's schema, fetched once before a task's first record (a subject with none stops the task with an error naming it), and read with the schema each record names. `false`: a serde given its schema writes with that schema's id, looked up under the subject (POST /subjects/{subject}); one given no schema stops the task where it writes, naming this key." },
  "key.subject.name.strategy": { type: "string", default: "topic", doc: `Subject of keys written by the registry serdes (\`avro\`, \`json_schema\`, \`protobuf\`): ${STRATEGY_DOC}` },
  "value.subject.name.strategy": { type: "string", default: "topic", doc: `Subject of values written by the registry serdes (\`avro\`, \`json_schema\`, \`protobuf\`): ${STRATEGY_DOC}` },
  "json.fail.invalid.schema": { type: "boolean", default: false, doc: "The `json_schema` serde checks each value it writes and each record it reads against its JSON schema (as Confluent's JSON Schema serdes do with this key; off by default there too): a value that does not fit stops the record with the reason, a record that does not fit follows the deserialization error policy." },
});

const STREAMS_KEYS = configKeys({
  "bootstrap.servers": { type: "string", doc: "Kafka brokers (host:port, comma-separated). Unset: Sluice starts its embedded broker." },
  "application.server": { type: "string", doc: "host:port other instances use to reach this one. Default: the HTTP server's listener:port." },
  "state.dir": { type: "string", default: ".sluice/state", path: "directory", doc: "Directory of the applications' local state stores. A deploy request's resolves under the trusted one." },
  "default.key.serde": { type: "string", default: "string", code: "serde", doc: "Key serde: string, json, long, int, double, bytes, avro, json_schema or protobuf (see `schema.registry.url`), the name of a registered serde (`sluice.streams.NamedCode`), or module#export (trusted configuration only)." },
  "default.value.serde": { type: "string", default: "string", code: "serde", doc: "Value serde: string, json, long, int, double, bytes, avro, json_schema or protobuf (see `schema.registry.url`), the name of a registered serde (`sluice.streams.NamedCode`), or module#export (trusted configuration only)." },
  "default.timestamp.extractor": { type: "string", default: "FailOnInvalidTimestamp", doc: "How source records get their event time when the source names no extractor (Consumed.timestampExtractor): `FailOnInvalidTimestamp` (the record's timestamp; a negative one fails the application), `LogAndSkipOnInvalidTimestamp` (drops such records), `UsePartitionTimeOnInvalidTimestamp` (takes the partition's time instead; `UsePreviousTimeOnInvalidTimestamp` is its former name), `WallclockTimestampExtractor`. Kafka Streams' class names (`org.apache.kafka.streams.processor.…`) are taken too." },
  "num.partitions": { type: "integer", default: 1, doc: "Partitions of the input and output topics the runtime creates when they are missing." },
  "commit.interval.ms": { type: "integer", default: 100, doc: "Longest time between commits of consumed offsets (`at_least_once` also commits after each fetch). Under `exactly_once_v2`, how long a transaction gathers work before it commits — what a read_committed consumer waits for the outputs at least; Kafka Streams' default under EOS." },
  "processing.error.policy": { type: "string", default: "fail", choices: ["fail", "log_and_continue", "dead_letter"], doc: "What a deserialization or processing error does: `fail` puts the application in ERROR; `log_and_continue` logs it and skips the record; `dead_letter` writes the record, key and value as consumed, to `streams.dead.letter.topic` with headers `sluice.dlq.error`, `sluice.dlq.error.class`, `sluice.dlq.phase`, `sluice.dlq.application.id`, `sluice.dlq.task.id`, `sluice.dlq.topic`, `sluice.dlq.partition`, `sluice.dlq.offset`, and goes on (each bad record once, also across a crash)." },
  "dead.letter.topic": { type: "string", default: "", doc: "Dead-letter topic of `dead_letter`; empty: `<application.id>-dlq` (created with one partition when missing)." },
  "restart.on.error": { type: "string", default: "never", choices: ["never", "backoff"], doc: "What a failed application does: `never` stays in ERROR until restarted; `backoff` restarts it by itself after a backoff (restarts shown as `restarts` in its description and counted by the `app-info` metric `restarts-total`)." },
  "restart.backoff.ms": { type: "integer", default: 1_000, doc: "First wait before `backoff` restarts a failed application; doubled after each failure that follows a restart." },
  "restart.backoff.max.ms": { type: "integer", default: 60_000, doc: "Longest wait between automatic restarts; a run that stays up longer counts as recovered." },
  "security.protocol": { type: "string", default: "PLAINTEXT", choices: ["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"], doc: "How the applications' clients reach the cluster: `PLAINTEXT`, `SSL` (TLS, with `ssl.*`), `SASL_PLAINTEXT` or `SASL_SSL` (SASL with `sasl.*`, over TLS)." },
  "ssl.ca.location": { type: "string", default: "", path: "file", doc: "PEM file of the CA(s) that signed the brokers' certificates; empty: the system's." },
  "ssl.certificate.location": { type: "string", default: "", path: "file", doc: "PEM file of the client certificate, for brokers that require one (mutual TLS)." },
  "ssl.key.location": { type: "string", default: "", path: "file", doc: "PEM file of the client certificate's private key." },
  "ssl.key.password": { type: "string", default: "", doc: "Password of the private key, if it is encrypted (hidden in `/config`; `${env:NAME}` or `${file:PATH}`)." },
  "ssl.endpoint.identification.algorithm": { type: "string", default: "https", choices: ["https", ""], doc: "`https` checks the broker's name against its certificate; empty does not." },
  "sasl.mechanism": { type: "string", default: "", doc: "SASL mechanism with `SASL_*`: `PLAIN`, `SCRAM-SHA-256`, `SCRAM-SHA-512` or `OAUTHBEARER`." },
  "sasl.username": { type: "string", default: "", doc: "User of PLAIN and SCRAM (`${env:NAME}` or `${file:PATH}`)." },
  "sasl.password": { type: "string", default: "", doc: "Password of PLAIN and SCRAM (hidden in `/config`; `${env:NAME}` or `${file:PATH}`)." },
  "sasl.oauthbearer.token.provider": { type: "string", default: "", code: "sasl.oauthbearer.token.provider", doc: "OAUTHBEARER: the name of a registered token provider (`sluice.streams.NamedCode`), or `module#export` (trusted configuration only), of a function returning a token, or `{ value, expiresAt }`; asked again at 80% of its life." },
  "sasl.oauthbearer.token.endpoint.url": { type: "string", default: "", doc: "OAUTHBEARER: OAuth token endpoint asked with the client-credentials grant (instead of a token provider)." },
  "sasl.oauthbearer.client.id": { type: "string", default: "", doc: "OAUTHBEARER: client id at the token endpoint (`${env:NAME}` or `${file:PATH}`)." },
  "sasl.oauthbearer.client.secret": { type: "string", default: "", doc: "OAUTHBEARER: client secret at the token endpoint (hidden in `/config`; `${env:NAME}` or `${file:PATH}`)." },
  "sasl.oauthbearer.scope": { type: "string", default: "", doc: "OAUTHBEARER: scope asked of the token endpoint; empty: none." },
  "sasl.oauthbearer.extensions": { type: "string", default: "", doc: "OAUTHBEARER: SASL extensions sent with the token, `key=value` pairs comma-separated (Confluent Cloud: `logicalCluster`, `identityPoolId`)." },
  // The kafkajs admin's timeouts, before Sluice's own client made the admin calls.
  "socket.connection.setup.timeout.ms": { type: "integer", doc: "Has no effect.", deprecated: "it set the timeouts of the kafkajs admin client, which Sluice no longer uses; its own client waits 10 s for a connection, TLS handshake included. Remove it." },
  "request.timeout.ms": { type: "integer", doc: "Has no effect.", deprecated: "it set the timeouts of the kafkajs admin client, which Sluice no longer uses; its own client's admin calls keep trying for 60 s. Remove it." },
  "auto.create.topics": { type: "boolean", doc: "Create missing input and output topics (`num.partitions` each). Default: true on the embedded broker, false when `bootstrap.servers` names a cluster. Internal topics are always created." },
  "repartition.purge.interval.ms": { type: "integer", default: 30_000, doc: "Least time between two purges of the repartition records the application has committed past (DeleteRecords)." },
  "windowstore.changelog.additional.retention.ms": { type: "integer", default: 86_400_000, doc: "Added to a window or session store's retention to make its changelog's `retention.ms` (changelogs of such stores are `cleanup.policy=compact,delete`), as in Kafka Streams." },
  "replication.factor": { type: "integer", default: -1, doc: "Replication factor of the topics the runtime creates; `-1` is the broker's default (`default.replication.factor`)." },
  "processing.guarantee": { type: "string", default: "at_least_once", choices: ["at_least_once", "exactly_once_v2"], doc: "`at_least_once`: outputs at least once, with exact state after a crash (stores and input positions commit together). `exactly_once_v2` (Kafka Streams' EOS v2, KIP-447): each commit is one Kafka transaction holding the outputs, changelog and repartition writes and the input offsets, and every topic is read read_committed, so consumers reading read_committed see each output once, also across crashes and zombie instances; needs brokers of Kafka 2.5 or later and, on a secured cluster, Write and Describe on the `TransactionalId` `<application.id>-` prefix (see the README). Kafka Streams 4.0 removed `exactly_once` and `exactly_once_beta`." },
  "transaction.timeout.ms": { type: "integer", default: 10_000, doc: "Under `exactly_once_v2`: how long the cluster lets a transaction stay open before it aborts it and fences its producer (the producer's `transaction.timeout.ms`, Kafka Streams' default under EOS): after a crash, what another instance taking the tasks over may wait at most. At most the cluster's `transaction.max.timeout.ms`." },
  "compression.type": { type: "string", default: "none", choices: COMPRESSION_TYPES, doc: "Codec of the record batches the application writes (outputs, changelogs, repartition topics, dead letters): `none`, `gzip`, `snappy`, `lz4` or `zstd`. Batches in every codec are read whatever this is." },
  "enable.idempotence": { type: "boolean", default: true, doc: "Idempotent writes, as Kafka's producers since 3.0: every batch carries a producer id, epoch and sequence number (InitProducerId), so a batch retried after a lost connection is stored once. Off: retries may duplicate records (for clusters that refuse IdempotentWrite), and restores cannot leave out what a fenced-off member wrote late (see the README)." },
  "delivery.timeout.ms": { type: "integer", default: 120_000, doc: "How long a batch the application writes is retried (lost connections, leader changes) before the application goes to ERROR naming the topic-partition and the cause." },
  "metadata.max.age.ms": { type: "integer", default: 300_000, doc: "The cluster's layout (partition leaders) is asked again once older than this, even without an error." },
  "metrics.recording.level": { type: "string", default: "INFO", choices: ["INFO", "DEBUG", "TRACE"], doc: "The most detailed level of the sensors processors add (`ProcessorContext.metrics()`) that record; a sensor of a finer level records nothing." },
  "stats.enable": { type: "boolean", default: false, doc: "Log store statistics periodically." },
  "stats.dumpPeriodSec": { type: "integer", default: 60, doc: "Period of the store statistics log, in seconds." },
  "log.dir": { type: "string", default: "", path: "directory", doc: "Directory of the application's own log file (<application.id>.log, at log.level, secrets hidden); empty: no file. A deploy request's resolves under the trusted `streams.log.dir` (or `streams.state.dir` when that is empty)." },
  "log.maxFileSize": { type: "integer", default: 10_485_760, doc: "Size in bytes at which the application's log file rotates to <application.id>.log.1 (one file kept)." },
  "statestore.cache.max.bytes": { type: "integer", default: 10_485_760, doc: "Bytes of the record cache of the application's stores (Kafka Streams' `statestore.cache.max.bytes`): updates of one key (of one window or session) are folded and reach the store, its changelog and the operator's downstream (output topics, event streams) once per commit, or when the cache is full (least recently used first). Interactive queries of key-value stores read through it. `0`: every update goes through as it happens. Updates continuing to a repartition topic are forwarded as they happen." },
  "leveldb.config.setter": { type: "string", default: "", code: "leveldb.config.setter", doc: "The name of a registered setter (`sluice.streams.NamedCode`), or `module#export` (trusted configuration only), of a function that tunes LevelDB options per store." },
  "session.timeout.ms": { type: "integer", default: 10_000, doc: "Consumer group session timeout." },
  "upgrade.from": { type: "string", default: "", choices: ["", ...EAGER_REBALANCE_VERSIONS, ...COOPERATIVE_REBALANCE_VERSIONS], doc: "As in Kafka Streams: the Kafka Streams version a rolling upgrade comes from. Empty (the default), or 2.4 and later: rebalances are cooperative (KIP-429): the tasks that stay on an instance keep processing and answering queries through a rebalance, and only the tasks that move are closed, in two rebalances (their owner gives them up in the first, their new owner takes them in the second). `0.10.0` to `2.3`: the eager protocol, in which every instance gives every task up at each rebalance (its stores stay open, but nothing is processed until the rebalance ends); set it on every instance while a group of older members is upgraded, or to keep the rebalances of Sluice before cooperative rebalancing." },
  "group.instance.id": { type: "string", default: "", doc: "Static membership (KIP-345): this instance's stable identity in the application's consumer group; each stream thread's consumer joins as `<group.instance.id>-<thread index>` (`-1`), as in Kafka Streams. A static member does not leave the group when it stops: restarted within `session.timeout.ms` with the same id (and the same state dir), it gets its tasks back with no rebalance, and the other instances keep processing. Give every instance its own id: a second instance with the same id fences the first (its application goes to ERROR with FENCED_INSTANCE_ID and stays there, also under `restart.on.error=backoff`). Pair it with a longer `session.timeout.ms`, which is also how long a crashed static member's tasks wait. Empty: dynamic membership." },
  "group.protocol": { type: "string", default: "classic", choices: ["classic"], doc: "The group protocol of the application's consumers: `classic` (JoinGroup and SyncGroup), the one Kafka Streams' task assignment runs on: the group's leader assigns tasks (with their standbys) from every instance's subscription data. The consumer group protocol of Kafka 4 (KIP-848, `group.protocol=consumer`, the default of Kafka 4's plain consumers) assigns partitions on the broker and has no place for that, and Sluice does not implement Kafka Streams' own broker-side protocol (`streams`, KIP-1071), so it refuses the value. A `consumer.group.protocol` setting is ignored, as Kafka Streams ignores it. Sluice's Kafka client speaks both protocols (see the README)." },
  "num.standby.replicas": { type: "integer", default: 0, doc: "Standby replicas of each stateful task (Kafka Streams' `num.standby.replicas`): each is kept on another instance of the application, never on the one that runs the task, as a warm copy of the task's stores that reads their changelogs continuously and processes no input. When the task's instance fails, an instance with its standby takes it over and restores only the changelog tail its copy lacks. The standbys are listed per instance by `/applications/{id}` and per thread by `/streams/{id}/status`. A task gets at most as many standbys as there are other instances. In-memory stores keep no standby copy across the takeover: they are restored from their changelogs whole." },
  "max.warmup.replicas": { type: "integer", default: 2, min: 1, doc: "Warm-up replicas the group's leader may give per rebalance, over all instances (Kafka Streams' `max.warmup.replicas`, KIP-441). When the balance wants a stateful task on an instance that lags more than `acceptable.recovery.lag` behind the task's changelogs (a new instance, one with an old state dir), the task stays on an instance that has caught up, and the lagging one gets a warm-up replica of it: a standby task that reads the changelogs. A probing rebalance (`probing.rebalance.interval.ms`) moves the task once its warm-up has caught up, so the task never stops to restore a whole store. More warm-ups move the load faster, at the cost of more changelog reads at once." },
  "acceptable.recovery.lag": { type: "integer", default: 10_000, min: 0, doc: "How many changelog records an instance may lack of a stateful task and still count as caught up on it (Kafka Streams' `acceptable.recovery.lag`): such an instance may be given the task, restoring that tail before it processes; one further behind gets a warm-up replica instead (`max.warmup.replicas`). Each member tells the leader the changelog offsets of every task it has state for (running, standby, or on disk: closed, or left by a crash and read back from its database at start); the leader compares them with the changelogs' ends." },
  "probing.rebalance.interval.ms": { type: "integer", default: 600_000, min: 1, doc: "How long after a rebalance that gave warm-up replicas the members rejoin the group, a probing rebalance in which the caught-up warm-ups take their tasks over (Kafka Streams' `probing.rebalance.interval.ms`). Under cooperative rebalancing the tasks that stay keep processing and answering queries through it. Kafka Streams refuses less than 60000; Sluice takes any positive value." },
  "num.stream.threads": { type: "integer", default: 1, min: 1, doc: "Stream threads of each instance of the application (Kafka Streams' `num.stream.threads`): each is a member of the application's consumer group with its own consumer (`<application.id>-<pid>-StreamThread-<n>-consumer`), producer and tasks. The leader places tasks on instances (processes, told apart by the process id of their state dir) first, then spreads each instance's tasks over its threads; a standby never goes to the instance of its active task. Threads can be added and removed while the application runs (`POST`/`DELETE /api/v1/streams/{id}/threads`). With two or more, each thread runs in a worker thread of its own, on its own core, when its topology provider loads from a module (a descriptor line, not `Sluice.register`) and the topology has no global stores; otherwise, and with one, threads share the main event loop (see the README's Cores)." },
  "heartbeat.interval.ms": { type: "integer", default: 1_000, doc: "Consumer group heartbeat interval." },
  "max.poll.interval.ms": { type: "integer", default: 60_000, doc: "How long a rebalance waits for the members to join again (the group's rebalance timeout)." },
  "fetch.max.wait.ms": { type: "integer", default: 200, doc: "How long the broker may hold a fetch that finds no new records." },
  "fetch.max.bytes": { type: "integer", default: 10_485_760, doc: "Bound on the records of one fetch answer." },
  "max.task.idle.ms": { type: "integer", default: 0, doc: "How long a task with several input partitions (a join, a merge of topics) waits for records of an empty partition before it processes the others' out of time order (Kafka Streams' `max.task.idle.ms`, KIP-695). `0`: it waits only while the partition's lag is unknown or records are known to be on the broker; `-1`: it never waits; more: it also waits this many milliseconds once the partition is caught up. Checked at least every `fetch.max.wait.ms`." },
  "buffered.records.per.partition": { type: "integer", default: 1000, doc: "A partition of a task with several input partitions is not fetched while more records than this wait in its queue (Kafka Streams' `buffered.records.per.partition`)." },
  "max.partition.fetch.bytes": { type: "integer", default: 1_048_576, doc: "Bound on one partition's records in a fetch answer; a polled batch is at most this big." },
  ...REGISTRY_SERDE_KEYS,
});

const CLIENT_SETTINGS = "kept in each application's configuration (shown by `/api/v1/streams/{id}/config`, secrets hidden), as Kafka Streams keeps its prefixed client settings; Sluice's Kafka clients act only on the keys listed above.";

const OPEN_STREAMS_KEYS = {
  "consumer.": `Consumer settings, ${CLIENT_SETTINGS}`,
  "producer.": `Producer settings, ${CLIENT_SETTINGS}`,
  "admin.": `Admin client settings, ${CLIENT_SETTINGS}`,
  "topic.": "Configs of the repartition and changelog topics the runtime creates, e.g. `streams.topic.min.insync.replicas=2`, over Kafka Streams' own: changelogs `cleanup.policy=compact` (`compact,delete` for window and session stores, with `retention.ms`), repartition topics `cleanup.policy=delete`, `retention.ms=-1`, `segment.bytes=52428800`; all `message.timestamp.type=CreateTime`.",
};

/** `streams.deployments.key.location`: a setting of the runtime, not of one application. */
export const DEPLOYMENTS_KEY_LOCATION = "deployments.key.location";

export const STREAMS_CONFIG = configSection({
  name: "streams",
  doc: "Defaults of every application the streams runtime hosts.",
  keys: {
    ...STREAMS_KEYS,
    [DEPLOYMENTS_KEY_LOCATION]: {
      type: "string",
      default: "",
      path: "file",
      doc: "File whose content is the key that encrypts (AES-256-GCM) the secrets of instances deployed over REST in `deployments.json`; empty: a deploy request that carries a secret (`sasl.password`, …) is refused, and the secret belongs in trusted configuration (`applications.<application.id>.sasl.password`, `${env:…}`, `${file:…}`).",
    },
  },
  open: OPEN_STREAMS_KEYS,
});

/** `applications.<application.id>.autostart`: an application setting that is not a streams default. */
export const AUTOSTART_KEY = "autostart";

export const APPLICATIONS_CONFIG = configSection({
  name: "applications",
  doc: "`applications.<application.id>.<key>` overrides any `streams.<key>` for one application, e.g. `applications.wordcount.commit.interval.ms=50`.",
  keys: {
    ...STREAMS_KEYS,
    [AUTOSTART_KEY]: { type: "boolean", default: true, doc: "`false`: the application's topology is listed by `GET /api/v1/topologies` and can be deployed over REST, but no instance of it starts at boot (as `autostart: false` on its provider)." },
  },
  open: OPEN_STREAMS_KEYS,
  named: true,
});

/** The keys every application takes, with what their declarations say (code, paths). */
export const APPLICATION_KEYS: ConfigKeys = STREAMS_KEYS;

/** Typed reads of an application's effective configuration. */
export type StreamsSettings = ConfigReader<typeof STREAMS_KEYS>;

/** The rebalance protocol `upgrade.from` asks for, as Kafka Streams reads it: eager when upgrading from before 2.4. */
export function rebalanceProtocolOf(settings: StreamsSettings): "eager" | "cooperative" {
  return (EAGER_REBALANCE_VERSIONS as readonly string[]).includes(settings.get("upgrade.from")) ? "eager" : "cooperative";
}

/** Where some of an application's settings come from. */
export interface ConfigLayer {
  values: Readonly<Record<string, ConfigValue>>;
  /** Named in the error of a value that does not fit its key. */
  source: string;
}

export interface ApplicationConfig {
  /** Every entry of every layer, the later layer winning, the declared keys as their declared types. */
  values: Readonly<Record<string, ConfigValue>>;
  settings: StreamsSettings;
  /** The code the keys that take code may name (`code` in their declaration); none registered when undefined. */
  code?: NamedCodeLookup;
}

/** Merges the layers, each declared key validated where it is set (other entries, as `application.id`, are kept as given). */
export function applicationConfig(layers: readonly ConfigLayer[], code?: NamedCodeLookup): ApplicationConfig {
  const declared: ConfigKeys = STREAMS_KEYS;
  const values: Record<string, ConfigValue> = {};
  for (const { values: layer, source } of layers) {
    for (const [key, raw] of Object.entries(layer)) {
      const spec = Object.hasOwn(declared, key) ? declared[key] : undefined;
      values[key] = spec === undefined ? raw : coerceValue({ key, spec }, raw, source);
    }
  }
  return { values, settings: new ConfigReader(STREAMS_KEYS, values), code };
}
