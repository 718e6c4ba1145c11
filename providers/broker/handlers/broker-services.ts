/** What the API handlers share: storage, the group and transaction coordinators and the broker's identity. */
import type { AclStore } from "../acl/acl-store";
import type { GroupCoordinator } from "../group/group-coordinator";
import type { ConsumerProtocolCoordinator } from "../group/consumer-protocol-coordinator";
import type { ComponentLogger } from "../../../kernel/logger";
import type { LogStore } from "../storage/log-store";
import type { AppendSignal } from "./append-signal";
import type { TopicAdmin } from "./topic-admin";
import type { TransactionCoordinator } from "../transactions/transaction-coordinator";

export const BROKER_NODE_ID = 0;

/** The broker's own settings that clients may ask about (DescribeConfigs). */
export interface BrokerConfigValues {
  readonly numPartitions: number;
  readonly autoCreateTopics: boolean;
  readonly retentionMs: number | null;
  readonly retentionBytes: number | null;
  readonly segmentBytes: number;
  readonly flushMessages: number | null;
  readonly maxRequestBytes: number;
}

export interface BrokerServices {
  readonly store: LogStore;
  /** The classic protocol's groups (JoinGroup / SyncGroup). */
  readonly coordinator: GroupCoordinator;
  /** The consumer group protocol's groups (KIP-848, ConsumerGroupHeartbeat). */
  readonly consumerGroups: ConsumerProtocolCoordinator;
  readonly transactions: TransactionCoordinator;
  readonly topics: TopicAdmin;
  readonly appends: AppendSignal;
  readonly clusterId: string;
  readonly config: BrokerConfigValues;
  readonly logger: ComponentLogger;
  /** The ACLs, when an authorizer checks requests; the ACL APIs answer SECURITY_DISABLED without. */
  readonly acls?: AclStore;
}
