import http from "node:http";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { REST_EXTENSION_CONTRACT, type RestExtension } from "../../../kernel/contracts/rest-extension";
import { ROUTE_CATALOG } from "../../../kernel/contracts/route-catalog";
import type { RouteRegistrar } from "../../../kernel/http/route-registry";
import type { BodySpec, RouteSpec } from "../../../kernel/http/route-spec";
import { eventually } from "../../helpers/eventually";
import { http as request, startSluice } from "../../helpers/sluice";

/*
 * The router's own rules through HTTP: HEAD answers on every GET route (built-in and extension alike), and a
 * REST extension route that a built-in route would hide, or that would hide one, stops startup naming both.
 */
const extension = (register: (routes: RouteRegistrar) => void): RestExtension => ({ register: ({ routes }) => register(routes) });

const startWith = (...extensions: RestExtension[]) =>
  startSluice({ services: { [REST_EXTENSION_CONTRACT]: extensions }, overrides: { "server.rest.extensions": "true" } });

const head = suite("HEAD on GET routes");

head("HEAD answers a GET route's status and headers without its body", async () => {
  const sluice = await startWith(extension((routes) => routes.get("/greeting/:name", (req) => ({ hello: req.params.name }))));
  try {
    for (const path of ["/api/v1", "/info", "/greeting/w%C3%B6rld", "/api/v1/streams/nope"]) {
      const get = await request(`${sluice.url}${path}`);
      const headed = await request(`${sluice.url}${path}`, { method: "HEAD" });
      assert.is(headed.status, get.status, path);
      assert.is(headed.headers.get("content-type"), get.headers.get("content-type"), path);
      assert.is(headed.headers.get("content-length"), String(Buffer.byteLength(get.text)), path);
      assert.is(headed.text, "", path);
    }
  } finally {
    await sluice.close();
  }
});

head("HEAD on a path with no GET route is still a 405", async () => {
  const sluice = await startWith(extension((routes) => routes.post("/only-post", () => ({ posted: true }))));
  try {
    const res = await request(`${sluice.url}/only-post`, { method: "HEAD" });
    assert.is(res.status, 405);
    assert.is(res.headers.get("allow"), "POST");
  } finally {
    await sluice.close();
  }
});

head("HEAD on a GET route that streams ends the response once its head is written", async () => {
  const sluice = await startWith(
    extension((routes) =>
      routes.get("/forever", (_req, res) => {
        res.writeHead(200, { "Content-Type": "text/event-stream; charset=utf-8" });
        res.write(": never ends\n\n");
      }),
    ),
  );
  try {
    // Over a connection the server closes once the response ends: a response left open would keep it open.
    let answer: { status?: number; type?: string } | undefined;
    const req = http.request(`${sluice.url}/forever`, { method: "HEAD", headers: { Connection: "close" } }, (res) => {
      res.resume();
      res.socket.once("close", () => (answer = { status: res.statusCode, type: res.headers["content-type"] }));
    });
    req.end();
    await eventually(() => answer, { timeoutMs: 5_000, what: "the HEAD response to end" });
    assert.equal(answer, { status: 200, type: "text/event-stream; charset=utf-8" });
  } finally {
    await sluice.close();
  }
});

const shadowing = suite("routes that would hide each other");

const refused = async (expected: RegExp[], ...extensions: RestExtension[]) => {
  await startWith(...extensions).then(
    async (sluice) => {
      await sluice.close();
      assert.unreachable("startup should fail");
    },
    (error: Error) => {
      for (const pattern of expected) assert.match(error.message, pattern);
    },
  );
};

shadowing("a static extension route beside a built-in parameter route fails startup naming both", async () => {
  await refused(
    [/REST extension '.*#1' cannot register GET \/api\/v1\/streams\/special/, /overlaps GET \/api\/v1\/streams\/:id of built-in '.*streams-api.*'/],
    extension((routes) => routes.get("/api/v1/streams/special", () => ({}))),
  );
});

shadowing("an extension parameter route over a built-in static one fails startup naming both", async () => {
  await refused(
    [/cannot register GET \/api\/v1\/streams\/:id\/:what/, /overlaps GET \/api\/v1\/streams\/:id\/status of built-in/],
    extension((routes) => routes.get("/api/v1/streams/:id/:what", () => ({}))),
  );
});

shadowing("two extensions overlapping fail startup whichever registers first", async () => {
  const special = extension((routes) => routes.get("/things/special", () => ({})));
  const any = extension((routes) => routes.get("/things/:id", () => ({})));
  await refused([/cannot register GET \/things\/:id: it overlaps GET \/things\/special/], special, any);
  await refused([/cannot register GET \/things\/special: it overlaps GET \/things\/:id/], any, special);
});

shadowing("routes that differ in a static segment, in length or in method live side by side", async () => {
  const sluice = await startWith(
    extension((routes) => {
      routes.get("/api/v1/streams/:id/extra", (req) => ({ extra: req.params.id }));
      routes.post("/api/v1/streams/special", () => ({ posted: true }));
      routes.get("/things/:id", (req) => ({ thing: req.params.id }));
      routes.get("/things/special", () => ({ own: "an owner may order its own routes" }));
    }),
  );
  try {
    assert.equal((await request(`${sluice.url}/api/v1/streams/x/extra`)).json(), { extra: "x" });
    assert.equal((await request(`${sluice.url}/api/v1/streams/special`, { method: "POST" })).json(), { posted: true });
    assert.equal((await request(`${sluice.url}/api/v1/streams`)).json(), []);
  } finally {
    await sluice.close();
  }
});

const declared = suite("routes that declare their body");

declared("a declared body is checked before the handler, which finds it parsed in req.body", async () => {
  const seen: unknown[] = [];
  const spec: RouteSpec = {
    summary: "Greets",
    body: { schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"], additionalProperties: false } },
    responses: { 200: { description: "A greeting" } },
  };
  const sluice = await startWith(extension((routes) => routes.post("/greet", (req) => (seen.push(req.body), { hello: (req.body as { name: string }).name }), { spec })));
  const post = (body: string, type = "application/json") => request(`${sluice.url}/greet`, { method: "POST", body, headers: { "Content-Type": type } });
  try {
    assert.equal((await post('{"name":"ada"}')).json(), { hello: "ada" });
    const cases: [string, number, string][] = [
      ['{"name":1}', 400, "Field 'name' must be a string, got 1"],
      ['{"name":"ada","age":3}', 400, "Request body has an unknown field 'age'; expected name"],
      ["", 400, "Request body is required"],
      ["{", 400, "Request body is not valid JSON"],
    ];
    for (const [body, status, message] of cases) {
      const res = await post(body);
      assert.is(res.status, status, body);
      assert.ok(res.json().message.startsWith(message), res.text);
    }
    assert.is((await post('{"name":"ada"}', "text/plain")).status, 415);
    assert.equal(seen, [{ name: "ada" }]);
  } finally {
    await sluice.close();
  }
});

declared("a declaration that does not fit its path, or uses a keyword the validator ignores, fails startup", async () => {
  const responses = { 200: { description: "ok" } };
  await refused(
    [/cannot register GET \/things\/:id: its spec describes path parameter 'name', which \/things\/:id does not have/],
    extension((routes) => routes.get("/things/:id", () => ({}), { spec: { summary: "x", pathParameters: { name: { description: "n" } }, responses } })),
  );
  const body = { schema: { type: "object", properties: { id: { type: "string", format: "uuid" } } } } as unknown as BodySpec;
  await refused(
    [/cannot register POST \/things: its spec JSON Schema keyword 'format' at #\/body\/properties\/id is not supported/],
    extension((routes) => routes.post("/things", () => ({}), { spec: { summary: "x", body, responses } })),
  );
});

declared("the registry lists every route with its owner, role, authentication and declaration", async () => {
  const spec: RouteSpec = { summary: "Lists things", responses: { 200: { description: "things" } } };
  const sluice = await startWith(
    extension((routes) => {
      routes.get("/things", () => [], { spec });
      routes.delete("/things/:id", () => ({}), { role: "admin" });
    }),
  );
  try {
    const listed = sluice.kernel.components.resolve(ROUTE_CATALOG).routes();
    const things = listed.filter((route) => route.path.startsWith("/things"));
    assert.equal(
      things.map(({ method, path, owner, role, authenticated, spec }) => ({ method, path, builtIn: owner.builtIn, role, authenticated, spec })),
      [
        { method: "GET", path: "/things", builtIn: false, role: "viewer", authenticated: false, spec },
        { method: "DELETE", path: "/things/:id", builtIn: false, role: "admin", authenticated: false, spec: undefined },
      ],
    );
    assert.ok(listed.some((route) => route.method === "GET" && route.path === "/api/v1/streams/:id" && route.owner.builtIn));
    assert.ok(Object.isFrozen(things[0]));
  } finally {
    await sluice.close();
  }
});

head.run();
shadowing.run();
declared.run();
