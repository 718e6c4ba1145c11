import { defineApi } from "../schema";

export const ApiVersions = defineApi({
  name: "ApiVersions",
  apiKey: 18,
  versions: "0-2",
  request: [],
  response: [
    { name: "errorCode", type: "int16" },
    {
      name: "apiKeys",
      fields: [
        { name: "apiKey", type: "int16" },
        { name: "minVersion", type: "int16" },
        { name: "maxVersion", type: "int16" },
      ],
    },
    { name: "throttleTimeMs", type: "int32", versions: "1+", default: 0 },
  ],
});
