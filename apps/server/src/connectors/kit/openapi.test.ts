import { describe, expect, it } from "vitest";
import { checkSchema, type OpenApiDocument, openApiDescription } from "./openapi";
import { trimOpenApi } from "./openapi-trim";

/** The OpenAPI checker and trim on a small document: each rule once, wrong and right. */
const DOCUMENT: OpenApiDocument = {
  openapi: "3.0.2",
  servers: [{ url: "https://api.example.com/3.0" }],
  "x-pinned": { url: "https://example.com/openapi.json", retrieved: "2026-11-29", operations: [] },
  paths: {
    "/lists/{id}": {
      get: {
        parameters: [
          {
            name: "fields",
            in: "query",
            schema: { type: "array", items: { type: "string", enum: ["id", "name"] } },
            explode: false,
          },
          { name: "count", in: "query", schema: { type: "integer" } },
        ],
        responses: { "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/List" } } } } },
      },
    },
    "/lists/activity": {
      post: {
        parameters: [{ $ref: "#/components/parameters/Day" } as never],
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/Ask" } } },
        },
        responses: { "4XX": { content: { "application/json": { schema: { $ref: "#/components/schemas/Problem" } } } } },
      },
    },
  },
  components: {
    parameters: { Day: { name: "day", in: "query", required: true, schema: { type: "string" } } },
    schemas: {
      List: {
        type: "object",
        required: ["id"],
        additionalProperties: false,
        properties: {
          id: { type: "string" },
          name: { type: "string", nullable: true },
          stats: { allOf: [{ $ref: "#/components/schemas/Stats" }] },
          kind: { oneOf: [{ type: "string", enum: ["a"] }, { type: "integer" }] },
        },
      },
      Stats: { type: "object", properties: { opens: { type: "integer" } } },
      Ask: { type: "object", required: ["metric"], properties: { metric: { type: "string" } } },
      Problem: { type: "object", properties: { title: { type: "string" } } },
      Unused: { type: "string" },
    },
  },
};

describe("the OpenAPI checker", () => {
  const checks = openApiDescription(DOCUMENT);
  const request = (method: string, path: string, body?: unknown) => ({
    method,
    url: new URL(`https://api.example.com/3.0${path}`),
    body,
  });

  it.each([
    ["GET", "/lists/abc?fields=id,name&count=5", undefined, []],
    [
      "GET",
      "/lists/abc?fields=id,title",
      undefined,
      ['GET /lists/{id}: query parameter fields: "title" is not one of ["id","name"]'],
    ],
    [
      "GET",
      "/lists/abc?count=five&sort=x",
      undefined,
      [
        'GET /lists/{id}: query parameter count: "five" is not an integer',
        "GET /lists/{id}: unknown query parameter sort",
      ],
    ],
    ["POST", "/lists/activity?day=2026-01-01", { metric: "opens" }, []],
    [
      "POST",
      "/lists/activity",
      { metric: 5 },
      [
        "POST /lists/activity: required query parameter day is missing",
        "POST /lists/activity: body.metric: number where the schema says string",
      ],
    ],
    ["POST", "/lists/activity?day=x", undefined, ["POST /lists/activity: the operation needs a body"]],
    ["DELETE", "/lists/abc", undefined, ["DELETE /lists/{id}: the path has no such method"]],
    ["GET", "/campaigns", undefined, ["GET /campaigns: no such path in the description"]],
  ])("%s %s", (method, path, body, problems) => {
    expect(checks.checkRequest(request(method, path, body))).toEqual(problems);
  });

  it("a literal segment wins over a template; the base path is required", () => {
    expect(checks.checkRequest(request("POST", "/lists/activity?day=1", {}))).toEqual([
      'POST /lists/activity: body: required property "metric" is missing',
    ]);
    expect(checks.checkRequest({ method: "GET", url: new URL("https://api.example.com/lists/abc") })).toEqual([
      "/lists/abc is not under /3.0",
    ]);
  });

  it.each([
    [200, { id: "a", name: null, stats: { opens: 3 }, kind: "a" }, []],
    [200, { id: "a", extra: 1 }, ["GET /lists/{id} → 200: answer.extra: not a described property"]],
    [200, { name: "x" }, ['GET /lists/{id} → 200: answer: required property "id" is missing']],
    [
      200,
      { id: "a", stats: { opens: 1.5 } },
      ["GET /lists/{id} → 200: answer.stats.opens: number where the schema says integer"],
    ],
    [200, { id: "a", kind: "b" }, ["GET /lists/{id} → 200: answer.kind: matches none of the 2 described alternatives"]],
    [500, {}, ["GET /lists/{id} → 500: no such status described"]],
  ])("answer %s %j", (status, body, problems) => {
    expect(checks.checkResponse(request("GET", "/lists/abc"), status, body)).toEqual(problems);
  });

  it("a status family (4XX) answers for its statuses", () => {
    expect(checks.checkResponse(request("POST", "/lists/activity"), 404, { title: 4 })).toEqual([
      "POST /lists/activity → 404: answer.title: number where the schema says string",
    ]);
  });

  it("sparse places may leave required properties out", () => {
    const schema = { type: "object", properties: { attributes: { type: "object", required: ["name"] } } };
    expect(checkSchema(DOCUMENT, schema, { attributes: {} })).toEqual([
      '$.attributes: required property "name" is missing',
    ]);
    expect(checkSchema(DOCUMENT, schema, { attributes: {} }, "$", { sparse: /\.attributes$/ })).toEqual([]);
  });
});

describe("the trim", () => {
  it("keeps the listed operations and the components they reach, and nothing else", () => {
    const trimmed = trimOpenApi(DOCUMENT, { url: "u", retrieved: "2026-11-29", operations: ["GET /lists/{id}"] });
    expect(Object.keys(trimmed.paths)).toEqual(["/lists/{id}"]);
    expect(Object.keys(trimmed.components?.schemas ?? {})).toEqual(["List", "Stats"]);
    expect(trimmed["x-pinned"]).toEqual({ url: "u", retrieved: "2026-11-29", operations: ["GET /lists/{id}"] });
    expect(() => trimOpenApi(DOCUMENT, { url: "u", retrieved: "d", operations: ["GET /nowhere"] })).toThrow(
      "the full document has no GET /nowhere",
    );
  });
});
