import { defineApi } from "../schema";

export const DeleteTopics = defineApi({
  name: "DeleteTopics",
  apiKey: 20,
  versions: "0-3",
  request: [
    { name: "topicNames", type: "string", array: true },
    { name: "timeoutMs", type: "int32" },
  ],
  response: [
    { name: "throttleTimeMs", type: "int32", versions: "1+", default: 0 },
    {
      name: "responses",
      fields: [
        { name: "name", type: "string" },
        { name: "errorCode", type: "int16" },
      ],
    },
  ],
});
