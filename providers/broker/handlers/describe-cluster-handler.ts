import { ErrorCode } from "../../kafka-protocol/error-codes";
import { DescribeCluster } from "../../kafka-protocol/messages/describe-cluster";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import { BROKER_NODE_ID, type BrokerServices } from "./broker-services";

const EndpointType = { BROKERS: 1, CONTROLLERS: 2 } as const;

/** The cluster as a broker endpoint sees it: its id, and this broker as the only broker and the controller. */
export function describeClusterHandler({ clusterId }: BrokerServices): RegisteredHandler {
  return defineHandler(DescribeCluster, (request, { apiVersion, advertisedHost, advertisedPort }) => {
    if (request.endpointType !== EndpointType.BROKERS) {
      // Version 0 has no endpoint type to get wrong; Kafka's answer to anything but brokers from a broker.
      const errorCode = request.endpointType === EndpointType.CONTROLLERS ? ErrorCode.MISMATCHED_ENDPOINT_TYPE : ErrorCode.UNSUPPORTED_ENDPOINT_TYPE;
      return { errorCode: apiVersion === 0 ? ErrorCode.INVALID_REQUEST : errorCode, errorMessage: `endpoint type ${request.endpointType} asked of a broker`, clusterId: "", brokers: [] };
    }
    return {
      errorCode: ErrorCode.NONE,
      clusterId,
      controllerId: BROKER_NODE_ID,
      brokers: [{ brokerId: BROKER_NODE_ID, host: advertisedHost, port: advertisedPort }],
    };
  });
}
