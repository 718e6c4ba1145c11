/** What the topology catalogue's routes answer, field for field as catalogue-json.ts writes them. */
import { arrayOf, type JsonSchema, objectSchema, type ParameterSpec, type RouteSpec } from "sluice";

const TAGS = ["topologies"];
const string: JsonSchema = { type: "string" };

const VERSION_FIELDS: Record<string, JsonSchema> = {
  name: string,
  description: { type: ["string", "null"] },
  config: { type: "object", description: "The topology's own configuration, secrets hidden: the defaults of an instance deployed from it" },
  event_streams: arrayOf(string, "Its event stream types, sorted"),
  autostart: { type: "boolean", description: "False when it is registered without an instance started at boot" },
};

const TOPOLOGY_VERSION = objectSchema({ ...VERSION_FIELDS, version: string });
const TOPOLOGY = objectSchema({ ...VERSION_FIELDS, versions: arrayOf(string, "Oldest first"), latest: string }, { description: "A topology by its newest version" });

const NAME: ParameterSpec = { description: "A topology's name", schema: { type: "string", examples: ["WordCount"] } };

export const TOPOLOGIES_SPECS = {
  all: { summary: "Every topology Sluice can run, deployable with POST /api/v1/streams", tags: TAGS, responses: { 200: { description: "Topologies by name", schema: arrayOf(TOPOLOGY) } } },
  one: {
    summary: "One topology: its versions and its newest version's details",
    tags: TAGS,
    pathParameters: { name: NAME },
    responses: { 200: { description: "The topology", schema: TOPOLOGY }, 404: "Unknown topology" },
  },
  version: {
    summary: "One version of a topology",
    tags: TAGS,
    pathParameters: { name: NAME, version: { description: "A version, or latest", schema: { type: "string", examples: ["1.0.0", "latest"] } } },
    responses: { 200: { description: "The version", schema: TOPOLOGY_VERSION }, 404: "Unknown topology or version" },
  },
} satisfies Record<string, RouteSpec>;
