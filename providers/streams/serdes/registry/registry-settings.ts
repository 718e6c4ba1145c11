/**
 * The settings of the schema registry serdes, under the names Confluent's serializers give them (KafkaAvroSerializer's
 * `schema.registry.url`, `auto.register.schemas`, …), read from an application's configuration (declared with the
 * streams keys, streams-config's REGISTRY_SERDE_KEYS).
 */
import type { ConfigValue } from "../../../../kernel/config/config-schema";

/** The subject name strategies (Confluent's TopicNameStrategy, RecordNameStrategy, TopicRecordNameStrategy). */
export type SubjectStrategy = "topic" | "record" | "topic-record";

export interface RegistrySettings {
  /** Empty: the built-in registry. */
  urls: string[];
  basicAuth?: { credentialsSource: "USER_INFO" | "URL"; userInfo?: string };
  bearerToken?: string;
  strategies: { key: SubjectStrategy; value: SubjectStrategy };
  /** `json.fail.invalid.schema`: the `json_schema` serde checks each value against its schema. */
  validateJson: boolean;
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

/** The registry settings of an application's configuration values, for the registry serde `serdeName`. */
export function registrySettings(values: Readonly<Record<string, ConfigValue>>, serdeName: string): RegistrySettings {
  const text = (key: string) => String(values[key] ?? "").trim();
  const urls = text("schema.registry.url");
  const source = text("basic.auth.credentials.source") || "USER_INFO";
  if (source !== "USER_INFO" && source !== "URL") throw new Error(`basic.auth.credentials.source: '${source}' is not USER_INFO or URL`);
  const userInfo = text("basic.auth.user.info");
  const bearerToken = text("bearer.auth.token");
  // The writer schema is always the subject's latest: a JavaScript value names none to register or to pick.
  if (values["auto.register.schemas"] === true) throw new Error(`auto.register.schemas=true: the ${serdeName} serde has no schema to register (a JavaScript value carries none); register the subject's schema and leave the key false`);
  if (values["use.latest.version"] === false) throw new Error(`use.latest.version=false: the ${serdeName} serde writes with the subject's latest schema only (a JavaScript value carries none of its own); leave the key true`);
  return {
    urls: urls === "" ? [] : urls.split(",").map((url) => url.trim().replace(/\/+$/, "")),
    basicAuth: source === "URL" ? { credentialsSource: source } : userInfo !== "" ? { credentialsSource: source, userInfo } : undefined,
    bearerToken: bearerToken === "" ? undefined : bearerToken,
    strategies: { key: strategyOf("key.subject.name.strategy", values["key.subject.name.strategy"]), value: strategyOf("value.subject.name.strategy", values["value.subject.name.strategy"]) },
    validateJson: values["json.fail.invalid.schema"] === true,
  };
}
