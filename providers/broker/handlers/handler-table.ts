/** The broker's APIs: api key → handler. Adding an API is adding a line here. */
import { ApiCodec } from "../../kafka-protocol/api-codec";
import type { RegisteredHandler } from "./api-handler";
import { apiVersionsHandler } from "./api-versions-handler";
import type { BrokerServices } from "./broker-services";
import { createTopicsHandler } from "./create-topics-handler";
import { deleteTopicsHandler } from "./delete-topics-handler";
import { describeGroupsHandler } from "./describe-groups-handler";
import { fetchHandler } from "./fetch-handler";
import { findCoordinatorHandler } from "./find-coordinator-handler";
import { heartbeatHandler } from "./heartbeat-handler";
import { consumerGroupHeartbeatHandler } from "./consumer-group-heartbeat-handler";
import { consumerGroupDescribeHandler } from "./consumer-group-describe-handler";
import { initProducerIdHandler } from "./init-producer-id-handler";
import { joinGroupHandler } from "./join-group-handler";
import { leaveGroupHandler } from "./leave-group-handler";
import { listGroupsHandler } from "./list-groups-handler";
import { listOffsetsHandler } from "./list-offsets-handler";
import { metadataHandler } from "./metadata-handler";
import { offsetCommitHandler } from "./offset-commit-handler";
import { offsetDeleteHandler } from "./offset-delete-handler";
import { offsetFetchHandler } from "./offset-fetch-handler";
import { produceHandler } from "./produce-handler";
import { saslAuthenticateHandler, saslHandshakeHandler } from "./sasl-handlers";
import { syncGroupHandler } from "./sync-group-handler";
import { describeConfigsHandler } from "./describe-configs-handler";
import { describeClusterHandler } from "./describe-cluster-handler";
import { deleteGroupsHandler } from "./delete-groups-handler";
import { deleteRecordsHandler } from "./delete-records-handler";
import { createPartitionsHandler } from "./create-partitions-handler";
import { addPartitionsToTxnHandler } from "./add-partitions-to-txn-handler";
import { addOffsetsToTxnHandler } from "./add-offsets-to-txn-handler";
import { txnOffsetCommitHandler } from "./txn-offset-commit-handler";
import { endTxnHandler } from "./end-txn-handler";
import { describeTransactionsHandler } from "./describe-transactions-handler";
import { listTransactionsHandler } from "./list-transactions-handler";
import { describeAclsHandler } from "./describe-acls-handler";
import { createAclsHandler } from "./create-acls-handler";
import { deleteAclsHandler } from "./delete-acls-handler";
import { authorizationRules, guarded } from "../acl/api-authorization";
import type { RuleServices } from "../acl/authorization-rule";

/** An `apiVersions` range that leaves the API out: a broker of a Kafka that does not have it. */
const NOT_SERVED = "none";

export interface HandlerTableOptions {
  autoCreateTopics: boolean;
  /** Fewer versions to serve of some APIs, by name, or "none" to serve one not at all (see BrokerOptions). */
  apiVersions?: Readonly<Record<string, string>>;
  /** With an authorizer, every handler serves only what its API's rule authorizes (acl/api-authorization.ts). */
  authorization?: RuleServices;
}

export function buildHandlerTable(services: BrokerServices, options: HandlerTableOptions): ReadonlyMap<number, RegisteredHandler> {
  const table = new Map<number, RegisteredHandler>();
  const handlers = [
    apiVersionsHandler(() => table.values()),
    metadataHandler(services, options.autoCreateTopics),
    createTopicsHandler(services),
    deleteTopicsHandler(services),
    produceHandler(services),
    initProducerIdHandler(services),
    fetchHandler(services),
    listOffsetsHandler(services),
    findCoordinatorHandler(),
    joinGroupHandler(services),
    syncGroupHandler(services),
    heartbeatHandler(services),
    leaveGroupHandler(services),
    consumerGroupHeartbeatHandler(services),
    consumerGroupDescribeHandler(services),
    offsetCommitHandler(services),
    offsetFetchHandler(services),
    offsetDeleteHandler(services),
    describeGroupsHandler(services),
    listGroupsHandler(services),
    describeConfigsHandler(services),
    describeClusterHandler(services),
    deleteGroupsHandler(services),
    deleteRecordsHandler(services),
    createPartitionsHandler(services),
    addPartitionsToTxnHandler(services),
    addOffsetsToTxnHandler(services),
    txnOffsetCommitHandler(services),
    endTxnHandler(services),
    describeTransactionsHandler(services),
    listTransactionsHandler(services),
    describeAclsHandler(services),
    createAclsHandler(services),
    deleteAclsHandler(services),
    saslHandshakeHandler(),
    saslAuthenticateHandler(),
  ];
  const narrowed = new Map(Object.entries(options.apiVersions ?? {}));
  const rules = options.authorization && authorizationRules(options.authorization);
  for (const served of handlers) {
    const handler = rules ? guarded(served, rules) : served;
    const within = narrowed.get(handler.api.spec.name);
    narrowed.delete(handler.api.spec.name);
    if (within === NOT_SERVED) continue;
    table.set(handler.api.apiKey, within === undefined ? handler : { ...handler, api: new ApiCodec(handler.api.spec, within) });
  }
  if (narrowed.size > 0) throw new Error(`apiVersions names APIs this broker does not serve: ${[...narrowed.keys()].join(", ")}`);
  return table;
}
