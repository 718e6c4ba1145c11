/**
 * Which APIs check what, in one table: each API the broker serves has a rule that narrows its requests to what the
 * requester may do and answers the rest with Kafka's authorization errors (topic-, group-, transaction-, cluster-rules),
 * or is open to every authenticated client. With an authorizer the handler table guards every handler by its rule;
 * an API without an entry here stops the broker from starting, so no new API slips through unchecked.
 */
import type { AnyAuthorizationRule, RegisteredHandler } from "../handlers/api-handler";
import type { RuleServices } from "./authorization-rule";
import { clusterRules } from "./cluster-rules";
import { groupRules } from "./group-rules";
import { topicRules } from "./topic-rules";
import { transactionRules } from "./transaction-rules";

/** APIs every client may call: they name no resource (ApiVersions, SASL's own, the cluster's brokers). */
const OPEN_APIS = new Set(["ApiVersions", "SaslHandshake", "SaslAuthenticate", "DescribeCluster"]);

export type RuleTable = ReadonlyMap<string, AnyAuthorizationRule>;

export function authorizationRules(services: RuleServices): RuleTable {
  return new Map([...topicRules(services), ...groupRules(services), ...transactionRules(services), ...clusterRules(services)]);
}

/** The handler serving only what its API's rule authorizes; throws for an API this table does not know. */
export function guarded(handler: RegisteredHandler, rules: RuleTable): RegisteredHandler {
  const name = handler.api.spec.name;
  if (OPEN_APIS.has(name)) return handler;
  const rule = rules.get(name);
  if (!rule || !handler.guardedBy) throw new Error(`the broker's API ${name} has no authorization rule (providers/broker/acl/api-authorization.ts)`);
  return handler.guardedBy(rule);
}
