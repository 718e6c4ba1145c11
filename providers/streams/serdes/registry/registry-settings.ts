/**
 * The settings of the schema registry serdes, under the names Confluent's serializers give them (KafkaAvroSerializer's
 * `schema.registry.url`, `auto.register.schemas`, …), read from an application's configuration.
 */
import type { ConfigValue } from "../../../../kernel/config/config-schema";
import { configKeys } from "../../../../kernel/config/config-schema";

/** The subject name strategies (Confluent's TopicNameStrategy, RecordNameStrategy, TopicRecordNameStrategy). */
export type SubjectStrategy = "topic" | "record" | "topic-record";

const STRATEGY_DOC = "`topic` (`<topic>-key` / `<topic>-value`, the default), `record` (the record's full name) or `topic-record` (`<topic>-<full name>`); Confluent's class names (`io.confluent.kafka.serializers.subject.TopicNameStrategy`, …) are taken too.";

export const REGISTRY_SERDE_KEYS = configKeys({
  "schema.registry.url": { type: "string", default: "", doc: "Schema registry of the `avro` serde: a Confluent-compatible REST URL (several, comma-separated, are tried in turn). Empty: the registry built into Sluice (`schema.registry.enable`), at `http://<server>/schema-registry`." },
  "basic.auth.credentials.source": { type: "string", default: "USER_INFO", choices: ["USER_INFO", "URL"], doc: "Where the registry's basic-auth credentials come from: `USER_INFO` (`basic.auth.user.info`) or `URL` (`http://user:password@host`)." },
  "basic.auth.user.info": { type: "string", default: "", doc: "`user:password` for the registry's basic auth (hidden in `/config`, logs and errors; `${env:NAME}` or `${file:PATH}`)." },
  "bearer.auth.token": { type: "string", default: "", doc: "A static bearer token sent to the registry (hidden in `/config`, logs and errors; `${env:NAME}` or `${file:PATH}`)." },
  "auto.register.schemas": { type: "boolean", default: true, doc: "Accepted under Kafka's name, but a JavaScript value carries no schema of its own, so the `avro` serde has none to register: it writes with the subject's latest registered schema (see `use.latest.version`)." },
  "use.latest.version": { type: "boolean", default: false, doc: "Accepted under Kafka's name; the `avro` serde always behaves as with `true`: it writes with the latest version of the subject's schema, fetched once before a task's first record (a subject with none stops the task with an error naming it), and reads with the schema each record names." },
  "key.subject.name.strategy": { type: "string", default: "topic", doc: `Subject of keys written by the \`avro\` serde: ${STRATEGY_DOC}` },
  "value.subject.name.strategy": { type: "string", default: "topic", doc: `Subject of values written by the \`avro\` serde: ${STRATEGY_DOC}` },
});

export interface RegistrySettings {
  /** Empty: the built-in registry. */
  urls: string[];
  basicAuth?: { credentialsSource: "USER_INFO" | "URL"; userInfo?: string };
  bearerToken?: string;
  strategies: { key: SubjectStrategy; value: SubjectStrategy };
}

const STRATEGY_NAMES: Readonly<Record<string, SubjectStrategy>> = {
  topic: "topic",
  topicnamestrategy: "topic",
  record: "record",
  recordnamestrategy: "record",
  "topic-record": "topic-record",
  topicrecordnamestrategy: "topic-record",
};

function strategyOf(key: string, value: ConfigValue | undefined): SubjectStrategy {
  const given = String(value ?? "topic");
  const strategy = STRATEGY_NAMES[given.slice(given.lastIndexOf(".") + 1).toLowerCase()];
  if (strategy === undefined) throw new Error(`${key}: '${given}' is not a subject name strategy (topic, record, topic-record)`);
  return strategy;
}

/** The registry settings of an application's configuration values. */
export function registrySettings(values: Readonly<Record<string, ConfigValue>>): RegistrySettings {
  const text = (key: string) => String(values[key] ?? "").trim();
  const urls = text("schema.registry.url");
  const source = text("basic.auth.credentials.source") || "USER_INFO";
  if (source !== "USER_INFO" && source !== "URL") throw new Error(`basic.auth.credentials.source: '${source}' is not USER_INFO or URL`);
  const userInfo = text("basic.auth.user.info");
  const bearerToken = text("bearer.auth.token");
  return {
    urls: urls === "" ? [] : urls.split(",").map((url) => url.trim().replace(/\/+$/, "")),
    basicAuth: source === "URL" ? { credentialsSource: source } : userInfo !== "" ? { credentialsSource: source, userInfo } : undefined,
    bearerToken: bearerToken === "" ? undefined : bearerToken,
    strategies: { key: strategyOf("key.subject.name.strategy", values["key.subject.name.strategy"]), value: strategyOf("value.subject.name.strategy", values["value.subject.name.strategy"]) },
  };
}
