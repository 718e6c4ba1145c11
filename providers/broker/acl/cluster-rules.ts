/**
 * Authorization of the cluster's and the producers' APIs, as Kafka's KafkaApis checks them: DESCRIBE on the cluster to
 * describe ACLs and ALTER to create or delete them; InitProducerId needs WRITE on its transactional id, or, for an
 * idempotent producer, IDEMPOTENT_WRITE on the cluster or WRITE on some topic (KIP-679).
 */
import { ErrorCode } from "../../kafka-protocol/error-codes";
import { CreateAcls } from "../../kafka-protocol/messages/create-acls";
import { DeleteAcls } from "../../kafka-protocol/messages/delete-acls";
import { DescribeAcls } from "../../kafka-protocol/messages/describe-acls";
import { InitProducerId } from "../../kafka-protocol/messages/init-producer-id";
import type { RequestContext } from "../handlers/api-handler";
import { AclOperation, type AclOperationCode, CLUSTER_NAME, ResourceType } from "./acl-binding";
import { refusedWith, requesterOf, ruleOf, servedWhole, type RuleServices } from "./authorization-rule";

const CLUSTER_DENIED = ErrorCode.CLUSTER_AUTHORIZATION_FAILED;
const CLUSTER_DENIED_MESSAGE = "Cluster authorization failed";

export function clusterRules({ authorizer }: RuleServices) {
  const onCluster = (context: RequestContext, operation: AclOperationCode) => authorizer.authorize(requesterOf(context), operation, ResourceType.CLUSTER, CLUSTER_NAME);

  return [
    ruleOf(InitProducerId, (request, context) => {
      const who = requesterOf(context);
      const transactionalId = request.transactionalId;
      const allowed =
        transactionalId === null
          ? onCluster(context, AclOperation.IDEMPOTENT_WRITE) || authorizer.authorizeAny(who, AclOperation.WRITE, ResourceType.TOPIC)
          : authorizer.authorize(who, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactionalId);
      if (allowed) return servedWhole(request);
      const errorCode = transactionalId === null ? CLUSTER_DENIED : ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED;
      return refusedWith({ throttleTimeMs: 0, errorCode, producerId: -1n, producerEpoch: -1 });
    }),
    ruleOf(DescribeAcls, (request, context) =>
      onCluster(context, AclOperation.DESCRIBE) ? servedWhole(request) : refusedWith({ errorCode: CLUSTER_DENIED, errorMessage: CLUSTER_DENIED_MESSAGE, resources: [] }),
    ),
    ruleOf(CreateAcls, (request, context) =>
      onCluster(context, AclOperation.ALTER)
        ? servedWhole(request)
        : refusedWith({ results: request.creations.map(() => ({ errorCode: CLUSTER_DENIED, errorMessage: CLUSTER_DENIED_MESSAGE })) }),
    ),
    ruleOf(DeleteAcls, (request, context) =>
      onCluster(context, AclOperation.ALTER)
        ? servedWhole(request)
        : refusedWith({ filterResults: request.filters.map(() => ({ errorCode: CLUSTER_DENIED, errorMessage: CLUSTER_DENIED_MESSAGE, matchingAcls: [] })) }),
    ),
  ];
}
