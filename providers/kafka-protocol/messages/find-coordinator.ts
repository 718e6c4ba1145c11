import { defineApi } from "../schema";

export const FindCoordinator = defineApi({
  name: "FindCoordinator",
  apiKey: 10,
  // v3 is the first flexible version.
  versions: "0-2",
  request: [
    { name: "key", type: "string" },
    { name: "keyType", type: "int8", versions: "1+" },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32", versions: "1+", default: 0 },
    { name: "errorCode", type: "int16" },
    { name: "errorMessage", type: "string", versions: "1+", nullableVersions: "1+" },
    { name: "nodeId", type: "int32" },
    { name: "host", type: "string" },
    { name: "port", type: "int32" },
  ],
});
