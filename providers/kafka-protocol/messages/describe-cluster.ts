import { defineApi } from "../schema";

export const DescribeCluster = defineApi({
  name: "DescribeCluster",
  apiKey: 60,
  versions: "0-1",
  flexibleVersions: "0+",
  request: [
    { name: "includeClusterAuthorizedOperations", type: "boolean" },
    // 1: brokers, 2: controllers.
    { name: "endpointType", type: "int8", versions: "1+", default: 1 },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32", default: 0 },
    { name: "errorCode", type: "int16" },
    { name: "errorMessage", type: "string", nullableVersions: "0+", default: null },
    { name: "endpointType", type: "int8", versions: "1+", default: 1 },
    { name: "clusterId", type: "string" },
    { name: "controllerId", type: "int32", default: -1 },
    {
      name: "brokers",
      fields: [
        { name: "brokerId", type: "int32" },
        { name: "host", type: "string" },
        { name: "port", type: "int32" },
        { name: "rack", type: "string", nullableVersions: "0+", default: null },
      ],
    },
    { name: "clusterAuthorizedOperations", type: "int32", default: -2147483648 },
  ],
});
