/**
 * A REST route of this package: GET /greetings/{name} answers how often a name was greeted, read from the `counts`
 * store through Sluice's interactive queries. With several instances of the application, the query goes to the one
 * that holds the name. `?application=<id>` reads a deployed instance instead of the one started at boot.
 */
import { INTERACTIVE_QUERIES, objectSchema, type RestExtension, type RestExtensionContext } from "sluice";

const DEFAULT_APPLICATION = "{{applicationId}}";

export class GreetingsExtension implements RestExtension {
  register({ routes, components }: RestExtensionContext): void {
    const queries = components.resolve(INTERACTIVE_QUERIES);
    routes.get(
      "/greetings/:name",
      async (req) => {
        const application = typeof req.query.application === "string" ? req.query.application : DEFAULT_APPLICATION;
        const request = { type: "key_value" as const, query: { get: { key: req.params.name } }, set_options: { remote_access_allowed: true } };
        const answer = await queries.query<string, number>(application, "counts", request);
        const [record] = answer.result.success.flatMap((entry) => entry.records);
        return { name: req.params.name, greeted: record?.value ?? 0, status: answer.status };
      },
      {
        spec: {
          summary: "How often a name was greeted",
          pathParameters: { name: { description: "A name written to the input topic" } },
          queryParameters: { application: { description: `The application.id to read (default ${DEFAULT_APPLICATION})` } },
          responses: {
            200: { description: "The count, and the status of the query", schema: objectSchema({ name: { type: "string" }, greeted: { type: "integer" }, status: { type: "string" } }) },
            404: "Unknown application",
          },
        },
      },
    );
  }
}
