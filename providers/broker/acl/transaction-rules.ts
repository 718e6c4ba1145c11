/**
 * Authorization of the transaction APIs, as Kafka's KafkaApis checks them: WRITE on the transactional id to add to,
 * commit or end a transaction; WRITE on each topic added (one refused topic leaves the others OPERATION_NOT_ATTEMPTED,
 * nothing added); READ on the group whose offsets join it, and on each topic committed; DESCRIBE on the transactional
 * id to describe or list it (listed topics the requester may not describe are left out).
 */
import { ErrorCode } from "../../kafka-protocol/error-codes";
import { AddOffsetsToTxn } from "../../kafka-protocol/messages/add-offsets-to-txn";
import { AddPartitionsToTxn } from "../../kafka-protocol/messages/add-partitions-to-txn";
import { DescribeTransactions } from "../../kafka-protocol/messages/describe-transactions";
import { EndTxn } from "../../kafka-protocol/messages/end-txn";
import { ListTransactions } from "../../kafka-protocol/messages/list-transactions";
import { TxnOffsetCommit } from "../../kafka-protocol/messages/txn-offset-commit";
import type { RequestContext } from "../handlers/api-handler";
import { AclOperation, type AclOperationCode, ResourceType, type ResourceTypeCode } from "./acl-binding";
import { appendingTo, refusedWith, requesterOf, ruleOf, type RuleServices, servedWhole, splitBy } from "./authorization-rule";

const TRANSACTION_DENIED = ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED;

export function transactionRules({ authorizer }: RuleServices) {
  const may = (context: RequestContext, operation: AclOperationCode, resourceType: ResourceTypeCode) => {
    const who = requesterOf(context);
    return (name: string) => authorizer.authorize(who, operation, resourceType, name);
  };
  const writesTransaction = (context: RequestContext, transactionalId: string) => may(context, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID)(transactionalId);

  return [
    ruleOf(AddPartitionsToTxn, (request, context) => {
      const transactional = writesTransaction(context, request.transactionalId);
      const writable = may(context, AclOperation.WRITE, ResourceType.TOPIC);
      const [, refused] = splitBy(request.topics, ({ name }) => transactional && writable(name));
      if (refused.length === 0) return servedWhole(request);
      const codeOf = (name: string) => (!transactional ? TRANSACTION_DENIED : writable(name) ? ErrorCode.OPERATION_NOT_ATTEMPTED : ErrorCode.TOPIC_AUTHORIZATION_FAILED);
      return refusedWith({ results: request.topics.map(({ name, partitions }) => ({ name, partitions: partitions.map((partitionIndex) => ({ partitionIndex, errorCode: codeOf(name) })) })) });
    }),

    ruleOf(AddOffsetsToTxn, (request, context) => {
      if (!writesTransaction(context, request.transactionalId)) return refusedWith({ errorCode: TRANSACTION_DENIED });
      if (!may(context, AclOperation.READ, ResourceType.GROUP)(request.groupId)) return refusedWith({ errorCode: ErrorCode.GROUP_AUTHORIZATION_FAILED });
      return servedWhole(request);
    }),

    ruleOf(TxnOffsetCommit, (request, context) => {
      const whole = !writesTransaction(context, request.transactionalId) ? TRANSACTION_DENIED : !may(context, AclOperation.READ, ResourceType.GROUP)(request.groupId) ? ErrorCode.GROUP_AUTHORIZATION_FAILED : undefined;
      const readable = may(context, AclOperation.READ, ResourceType.TOPIC);
      const [served, refused] = splitBy(request.topics, ({ name }) => whole === undefined && readable(name));
      const errorCode = whole ?? ErrorCode.TOPIC_AUTHORIZATION_FAILED;
      const answered = refused.map(({ name, partitions }) => ({ name, partitions: partitions.map(({ partitionIndex }) => ({ partitionIndex, errorCode })) }));
      if (whole !== undefined) return refusedWith({ topics: answered });
      return { request: { ...request, topics: served }, complete: appendingTo("topics", answered) };
    }),

    ruleOf(EndTxn, (request, context) => (writesTransaction(context, request.transactionalId) ? servedWhole(request) : refusedWith({ errorCode: TRANSACTION_DENIED }))),

    ruleOf(DescribeTransactions, (request, context) => {
      const [served, refused] = splitBy(request.transactionalIds, may(context, AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID));
      const describable = may(context, AclOperation.DESCRIBE, ResourceType.TOPIC);
      const answered = refused.map((transactionalId) => ({
        errorCode: TRANSACTION_DENIED,
        transactionalId,
        transactionState: "",
        transactionTimeoutMs: 0,
        transactionStartTimeMs: -1n,
        producerId: -1n,
        producerEpoch: -1,
        topics: [],
      }));
      return {
        request: { ...request, transactionalIds: served },
        complete: (response) =>
          response && {
            ...response,
            transactionStates: [...response.transactionStates.map((state) => ({ ...state, topics: state.topics.filter(({ topic }) => describable(topic)) })), ...answered],
          },
      };
    }),

    ruleOf(ListTransactions, (request, context) => {
      const describable = may(context, AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID);
      return { request, complete: (response) => response && { ...response, transactionStates: response.transactionStates.filter(({ transactionalId }) => describable(transactionalId)) } };
    }),
  ];
}
