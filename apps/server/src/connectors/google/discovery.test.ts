import { describe, expect, it } from "vitest";
import { type DiscoveryDocument, discoveryDescription } from "./discovery";

/** A discovery document of two methods, in the shape scripts/pin-google-discovery.mjs writes. */
const DOC = {
  pinned: { source: "https://example.test/discovery/things-v1.json", retrieved: "2026-11-29", methods: [] },
  name: "things",
  servicePath: "",
  parameters: {
    fields: { location: "query", type: "string" },
    prettyPrint: { location: "query", type: "boolean" },
  },
  resources: {
    things: {
      methods: {
        get: {
          id: "things.things.get",
          httpMethod: "GET",
          path: "v1/{+name}",
          parameters: {
            name: { location: "path", required: true, type: "string", pattern: "^things/[^/]+$" },
            view: { location: "query", type: "string", enum: ["BASIC", "FULL"] },
          },
          response: { $ref: "Thing" },
        },
        count: {
          id: "things.things.count",
          httpMethod: "POST",
          path: "v1/{+parent}/things:count",
          parameters: {
            parent: { location: "path", required: true, type: "string", pattern: "^shelves/[^/]+$" },
            "window.startDay": { location: "query", type: "integer" },
            pageSize: { location: "query", required: true, type: "integer" },
          },
          request: { $ref: "CountRequest" },
          response: { $ref: "Count" },
        },
      },
    },
  },
  schemas: {
    Thing: {
      type: "object",
      properties: {
        name: { type: "string" },
        size: { type: "string", format: "int64" },
        weight: { type: "number" },
        kind: { type: "string", enum: ["KIND_UNSPECIFIED", "BIG_BOX"] },
        labels: { type: "object", additionalProperties: { type: "string" } },
      },
    },
    CountRequest: { type: "object", properties: { limit: { type: "integer" }, deep: { type: "boolean" } } },
    Count: { type: "object", properties: { total: { type: "string", format: "int64" } } },
  },
} as unknown as DiscoveryDocument;

const strict = discoveryDescription([DOC]);
const loose = discoveryDescription([DOC], { looseEnums: true });
const request = (method: string, url: string, body?: unknown) => ({
  method,
  url: new URL(url, "https://things.example"),
  ...(body === undefined ? {} : { body }),
});

describe("a request against a discovery document", () => {
  it.each<[string, ReturnType<typeof request>, string[]]>([
    ["a described GET", request("GET", "/v1/things/7?view=FULL&fields=name"), []],
    [
      "an enum value it lacks",
      request("GET", "/v1/things/7?view=ALL"),
      ['things.things.get: parameter view: "ALL" is not one of BASIC, FULL'],
    ],
    [
      "a global boolean that is not one",
      request("GET", "/v1/things/7?prettyPrint=yes"),
      ['things.things.get: parameter prettyPrint: "yes" is not true or false'],
    ],
    [
      "a parameter given twice",
      request("GET", "/v1/things/7?view=FULL&view=BASIC"),
      ["things.things.get: parameter view: given 2 times"],
    ],
    [
      "{+name} matches anything, but the method whose path pattern holds wins",
      request("POST", "/v1/shelves/3/things:count?pageSize=10", { limit: "5", deep: true }),
      [],
    ],
    [
      "a required parameter missing, a wrong body type, an unknown body property",
      request("POST", "/v1/shelves/3/things:count", { limit: 1.5, colour: "red" }),
      [
        "things.things.count: parameter pageSize: required by things.things.count",
        "things.things.count: body.limit: expected an integer, got number 1.5",
        "things.things.count: body.colour: unknown property (not in the schema)",
      ],
    ],
    [
      "a parameter by its proto field path is the same parameter",
      request("POST", "/v1/shelves/3/things:count?pageSize=1&window.start_day=2", {}),
      [],
    ],
    [
      "a path no method has",
      request("DELETE", "/v1/things/7"),
      ["DELETE /v1/things/7: no method of things (pinned: )"],
    ],
  ])("%s", (_label, given, problems) => {
    expect(strict.checkRequest(given)).toEqual(problems);
  });
});

describe("an answer against a discovery document", () => {
  const get = request("GET", "/v1/things/7");
  it.each<[string, unknown, string[]]>([
    ["as described", { name: "things/7", size: "12", weight: 1.5, kind: "BIG_BOX", labels: { a: "b" } }, []],
    [
      "an int64 as a number (Google answers strings)",
      { size: 12 },
      ["things.things.get: answer.size: expected a 64-bit integer as a string, got number 12"],
    ],
    [
      "a double as a string of digits",
      { weight: "1.5" },
      ['things.things.get: answer.weight: expected a number, got string "1.5"'],
    ],
    [
      "a map's value of another type",
      { labels: { a: 1 } },
      ["things.things.get: answer.labels.a: expected a string, got number 1"],
    ],
    [
      "a property Google never sends",
      { colour: "red" },
      ["things.things.get: answer.colour: unknown property (not in the schema)"],
    ],
    ["not an object", [], ["things.things.get: answer: expected an object, got array []"]],
  ])("%s", (_label, body, problems) => {
    expect(strict.checkResponse(get, 200, body)).toEqual(problems);
  });

  it("reads a failure as Google's error body", () => {
    expect(strict.checkResponse(get, 404, { error: { code: 404, message: "Not found", status: "NOT_FOUND" } })).toEqual(
      [],
    );
    expect(strict.checkResponse(get, 404, { message: "Not found" })[0]).toContain('is not Google\'s {"error": {…}}');
  });

  it("compares enums whatever their case and underscores only when told to", () => {
    expect(strict.checkResponse(get, 200, { kind: "bigBox" })).toEqual([
      'things.things.get: answer.kind: "bigBox" is not one of KIND_UNSPECIFIED, BIG_BOX',
    ]);
    expect(loose.checkResponse(get, 200, { kind: "bigBox" })).toEqual([]);
    expect(loose.checkResponse(get, 200, { kind: "small" })).toHaveLength(1);
  });

  it("names its source", () => {
    expect(strict.source).toEqual({ url: "https://example.test/discovery/things-v1.json", retrieved: "2026-11-29" });
  });
});
