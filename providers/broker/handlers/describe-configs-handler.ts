/**
 * DescribeConfigs for topics and for this broker: each config's value, where it comes from (the topic, the broker's
 * settings, or Kafka's default) and, when asked, the chain of synonyms behind it and its documentation. Every config
 * is read-only here: the broker has no AlterConfigs.
 */
import { ErrorCode, type ErrorCodeValue } from "../../kafka-protocol/error-codes";
import { DescribeConfigs } from "../../kafka-protocol/messages/describe-configs";
import type { RequestOf, ResponseOf } from "../../kafka-protocol/schema";
import type { TopicSettings } from "../storage/log-store";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import { BROKER_NODE_ID, type BrokerConfigValues, type BrokerServices } from "./broker-services";
import { BROKER_CONFIGS, TOPIC_CONFIGS, type BrokerConfig, type TopicConfig } from "./topic-configs";

type Resource = RequestOf<typeof DescribeConfigs>["resources"][number];
type Result = ResponseOf<typeof DescribeConfigs>["results"][number];
type Entry = Result["configs"][number];

const ResourceType = { TOPIC: 2, BROKER: 4 } as const;
const ConfigSource = { TOPIC_CONFIG: 1, STATIC_BROKER_CONFIG: 4, DEFAULT_CONFIG: 5 } as const;

interface Synonym {
  name: string;
  value: string;
  source: number;
}

/** Where a broker config's value comes from, most specific first: the broker's settings when they differ from Kafka's default, then that default. */
function brokerSynonyms(config: BrokerConfig, broker: BrokerConfigValues): Synonym[] {
  const value = config.value(broker);
  const synonyms: Synonym[] = [];
  if (value !== config.kafkaDefault) synonyms.push({ name: config.name, value, source: ConfigSource.STATIC_BROKER_CONFIG });
  if (config.kafkaDefault !== null) synonyms.push({ name: config.name, value: config.kafkaDefault, source: ConfigSource.DEFAULT_CONFIG });
  return synonyms;
}

function topicSynonyms(config: TopicConfig, topic: TopicSettings, broker: BrokerConfigValues): Synonym[] {
  const own = topic.configs?.[config.name];
  const overridden = own === undefined ? [] : [{ name: config.name, value: own, source: ConfigSource.TOPIC_CONFIG }];
  return [...overridden, ...brokerSynonyms(config.brokerConfig, broker)];
}

export function describeConfigsHandler({ store, config: broker }: BrokerServices): RegisteredHandler {
  return defineHandler(DescribeConfigs, (request) => {
    const entry = (name: string, type: number, doc: string, synonyms: Synonym[]): Entry => {
      const [effective] = synonyms;
      return {
        name,
        value: effective.value,
        readOnly: true,
        isDefault: effective.source === ConfigSource.DEFAULT_CONFIG,
        configSource: effective.source,
        isSensitive: false,
        synonyms: request.includeSynonyms ? synonyms : [],
        configType: type,
        documentation: request.includeDocumentation ? doc : null,
      };
    };
    const wanted = (keys: string[] | null) => (config: { name: string }) => keys === null || keys.includes(config.name);
    const result = (resource: Resource, errorCode: ErrorCodeValue, errorMessage: string | null, configs: Entry[] = []): Result => ({
      errorCode,
      errorMessage,
      resourceType: resource.resourceType,
      resourceName: resource.resourceName,
      configs,
    });

    const describe = (resource: Resource): Result => {
      const { resourceType, resourceName, configurationKeys } = resource;
      if (resourceType === ResourceType.TOPIC) {
        const topic = store.topics().get(resourceName);
        if (topic === undefined) return result(resource, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `topic ${resourceName} does not exist`);
        const configs = TOPIC_CONFIGS.filter(wanted(configurationKeys));
        return result(resource, ErrorCode.NONE, null, configs.map((config) => entry(config.name, config.type, config.doc, topicSynonyms(config, topic, broker))));
      }
      if (resourceType === ResourceType.BROKER) {
        // "": the cluster-wide dynamic defaults, of which this broker has none.
        if (resourceName === "") return result(resource, ErrorCode.NONE, null);
        if (resourceName !== String(BROKER_NODE_ID)) return result(resource, ErrorCode.INVALID_REQUEST, `unexpected broker id ${resourceName}: this broker is ${BROKER_NODE_ID}`);
        const configs = BROKER_CONFIGS.filter(wanted(configurationKeys));
        return result(resource, ErrorCode.NONE, null, configs.map((config) => entry(config.name, config.type, config.doc, brokerSynonyms(config, broker))));
      }
      return result(resource, ErrorCode.INVALID_REQUEST, `resource type ${resourceType} is not described here: only topics (2) and the broker (4) are`);
    };

    return { results: request.resources.map(describe) };
  });
}
