import type { ApiDescription, DescribedRequest } from "../kit/description";

/**
 * Google's discovery documents as an ApiDescription (kit/description.ts). Each Google connector pins
 * trimmed copies in its folder's `discovery/` (scripts/pin-google-discovery.mjs: only the methods it calls
 * and the schemas they reach); this reads them: a request must be one of those methods (HTTP method and
 * path), with only its own or Google's global query parameters, of their type and enum, and a body of the
 * method's request schema; a 2xx answer must be of its response schema, a failure Google's error body.
 * Unknown properties are problems both ways: Google rejects them in a request ("Unknown name"), and a
 * fake answering one invents a field the real API never sends.
 */

interface DiscoverySchema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: string[];
  properties?: Record<string, DiscoverySchema>;
  additionalProperties?: DiscoverySchema;
  items?: DiscoverySchema;
}

interface DiscoveryParameter extends DiscoverySchema {
  location: "path" | "query";
  required?: boolean;
  repeated?: boolean;
  pattern?: string;
}

interface DiscoveryMethod {
  id: string;
  httpMethod: string;
  path: string;
  parameters?: Record<string, DiscoveryParameter>;
  request?: { $ref: string };
  response?: { $ref: string };
}

interface DiscoveryResource {
  methods?: Record<string, DiscoveryMethod>;
  resources?: Record<string, DiscoveryResource>;
}

/** A pinned, trimmed discovery document (what scripts/pin-google-discovery.mjs writes). */
export interface DiscoveryDocument {
  pinned: { source: string; retrieved: string; methods: string[] };
  name: string;
  servicePath: string;
  parameters: Record<string, DiscoveryParameter>;
  resources: Record<string, DiscoveryResource>;
  schemas: Record<string, DiscoverySchema>;
}

/** Which way a value goes: Google parses requests leniently (proto3 JSON) but answers in one form. */
type Direction = "request" | "response";

export interface DiscoveryOptions {
  /**
   * Enum values match whatever their case and underscores (`byProperty` is `BY_PROPERTY`): for an API
   * whose current document spells its enums in capitals while the older path the connector calls
   * documents and answers them in camelCase, read case-insensitively (Search Console's webmasters/v3).
   */
  looseEnums?: boolean;
}

interface Context {
  doc: DiscoveryDocument;
  direction: Direction;
  options: DiscoveryOptions;
}

const enumKey = (value: string, options: DiscoveryOptions) =>
  options.looseEnums ? value.replace(/_/g, "").toLowerCase() : value;

const inEnum = (values: readonly string[], value: string, options: DiscoveryOptions) =>
  values.some((entry) => enumKey(entry, options) === enumKey(value, options));

interface Route {
  doc: DiscoveryDocument;
  method: DiscoveryMethod;
  names: string[];
  pattern: RegExp;
}

const literal = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, "\\$&");

/** `v1beta/{+property}:runReport` → a pattern over the URL's (still encoded) path, capturing the parameters. */
function routeOf(doc: DiscoveryDocument, method: DiscoveryMethod): Route {
  const names: string[] = [];
  const template = `/${doc.servicePath}${method.path}`;
  let source = "";
  let rest = template;
  for (let match = /\{(\+?)([^}]+)\}/.exec(rest); match; match = /\{(\+?)([^}]+)\}/.exec(rest)) {
    source += literal(rest.slice(0, match.index));
    names.push(match[2] ?? "");
    // `{+name}` is reserved expansion: the value may hold slashes (properties/1234).
    source += match[1] === "+" ? "(.+?)" : "([^/]+)";
    rest = rest.slice(match.index + match[0].length);
  }
  source += literal(rest);
  return { doc, method, names, pattern: new RegExp(`^${source}$`) };
}

function methodsOf(resources: Record<string, DiscoveryResource>): DiscoveryMethod[] {
  return Object.values(resources).flatMap((resource) => [
    ...Object.values(resource.methods ?? {}),
    ...methodsOf(resource.resources ?? {}),
  ]);
}

const kindOf = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);
const INTEGER = /^-?\d+$/;
const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** Problems with one value against a schema, each naming where in the body it is. */
function checkValue(context: Context, schema: DiscoverySchema, value: unknown, at: string): string[] {
  const { direction } = context;
  if (schema.$ref) {
    const target = context.doc.schemas[schema.$ref];
    return target ? checkValue(context, target, value, at) : [`${at}: schema ${schema.$ref} is not pinned`];
  }
  const wrong = (expected: string) => [`${at}: expected ${expected}, got ${kindOf(value)} ${JSON.stringify(value)}`];
  switch (schema.type) {
    case "object": {
      if (kindOf(value) !== "object") return wrong("an object");
      return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => {
        const property = schema.properties?.[key] ?? schema.additionalProperties;
        if (!property) return [`${at}.${key}: unknown property (not in ${schema.$ref ?? "the schema"})`];
        return checkValue(context, property, child, `${at}.${key}`);
      });
    }
    case "array":
      if (!Array.isArray(value)) return wrong("an array");
      return value.flatMap((item, index) => checkValue(context, schema.items ?? {}, item, `${at}[${index}]`));
    case "string":
      return checkString(context, schema, value, at);
    case "integer":
      // Google answers int32 as numbers; proto3 JSON parsing takes "5" in a request too.
      if (typeof value === "number" && Number.isInteger(value)) return [];
      if (direction === "request" && typeof value === "string" && INTEGER.test(value)) return [];
      return wrong("an integer");
    case "number":
      if (typeof value === "number") return [];
      if (typeof value === "string" && (NUMBER.test(value) || ["NaN", "Infinity", "-Infinity"].includes(value))) {
        return direction === "request" || !NUMBER.test(value) ? [] : wrong("a number");
      }
      return wrong("a number");
    case "boolean":
      return typeof value === "boolean" ? [] : wrong("a boolean");
    default:
      // `any`, or a schema without a type: anything goes.
      return [];
  }
}

function checkString({ direction, options }: Context, schema: DiscoverySchema, value: unknown, at: string): string[] {
  const int64 = schema.format === "int64" || schema.format === "uint64";
  if (int64) {
    // Google answers 64-bit integers as strings (JSON numbers lose precision); a request may send either.
    if (typeof value === "string" && INTEGER.test(value)) return [];
    if (direction === "request" && typeof value === "number" && Number.isInteger(value)) return [];
    return [`${at}: expected a 64-bit integer as a string, got ${kindOf(value)} ${JSON.stringify(value)}`];
  }
  if (typeof value !== "string") return [`${at}: expected a string, got ${kindOf(value)} ${JSON.stringify(value)}`];
  if (schema.enum && !inEnum(schema.enum, value, options)) {
    return [`${at}: "${value}" is not one of ${schema.enum.join(", ")}`];
  }
  return [];
}

/** Problems with one query or path parameter's value (as text, as a URL carries it). */
function checkParameter(
  name: string,
  parameter: DiscoveryParameter,
  value: string,
  options: DiscoveryOptions,
): string[] {
  if (parameter.type === "integer" && !INTEGER.test(value)) return [`parameter ${name}: "${value}" is not an integer`];
  if (parameter.type === "boolean" && value !== "true" && value !== "false") {
    return [`parameter ${name}: "${value}" is not true or false`];
  }
  if (parameter.enum && !inEnum(parameter.enum, value, options)) {
    return [`parameter ${name}: "${value}" is not one of ${parameter.enum.join(", ")}`];
  }
  if (parameter.pattern && !new RegExp(parameter.pattern).test(value)) {
    return [`parameter ${name}: "${value}" does not match ${parameter.pattern}`];
  }
  return [];
}

/**
 * A query parameter's JSON name: Google maps query parameters onto the request message by field path and
 * takes each field by its proto name too (`dailyRange.start_date.year` is `dailyRange.startDate.year`;
 * Google's own example for fetchMultiDailyMetricsTimeSeries writes `daily_range.start_date.year`).
 */
const jsonName = (name: string) => name.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());

/** The error body every Google API but Ads' stream answers a failure with (google.rpc.Status). */
function checkGoogleError(body: unknown): string[] {
  const error = (body as { error?: unknown } | null)?.error;
  if (kindOf(error) !== "object") return [`a failure's body is not Google's {"error": {…}}: ${JSON.stringify(body)}`];
  const { code, message, status } = error as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof code !== "number") problems.push("error.code: expected a number");
  if (typeof message !== "string") problems.push("error.message: expected a string");
  if (status !== undefined && typeof status !== "string") problems.push("error.status: expected a string");
  return problems;
}

export function discoveryDescription(
  docs: readonly DiscoveryDocument[],
  options: DiscoveryOptions = {},
): ApiDescription {
  const routes = docs.flatMap((doc) => methodsOf(doc.resources).map((method) => routeOf(doc, method)));
  const first = docs[0];
  if (!first) throw new Error("a discovery description needs at least one document");

  /**
   * The method answering this request, and its path parameters decoded. `v1beta/{+name}` (getMetadata)
   * matches any path of its API, so a method whose parameters' patterns hold wins over one whose don't.
   */
  function find(request: DescribedRequest): { route: Route; path: Record<string, string> } | null {
    let loose: { route: Route; path: Record<string, string> } | null = null;
    for (const route of routes) {
      if (route.method.httpMethod !== request.method.toUpperCase()) continue;
      const match = route.pattern.exec(request.url.pathname);
      if (!match) continue;
      const path = Object.fromEntries(
        route.names.map((name, index) => [name, decodeURIComponent(match[index + 1] ?? "")]),
      );
      const fits = Object.entries(path).every(([name, value]) => {
        const pattern = route.method.parameters?.[name]?.pattern;
        return !pattern || new RegExp(pattern).test(value);
      });
      if (fits) return { route, path };
      loose ??= { route, path };
    }
    return loose;
  }
  const unknown = (request: DescribedRequest) =>
    `${request.method.toUpperCase()} ${request.url.pathname}: no method of ${docs.map((doc) => doc.name).join(", ")} (pinned: ${docs.flatMap((doc) => doc.pinned.methods).join(", ")})`;

  return {
    // Several documents (GA4's Data and Admin APIs) are taken from one commit: the first names it.
    source: { url: docs.map((doc) => doc.pinned.source).join(" "), retrieved: first.pinned.retrieved },
    checkRequest(request) {
      const found = find(request);
      if (!found) return [unknown(request)];
      const { route, path } = found;
      const own = route.method.parameters ?? {};
      const problems: string[] = [];
      for (const [name, value] of Object.entries(path)) {
        const parameter = own[name];
        if (parameter) problems.push(...checkParameter(name, parameter, value, options));
      }
      const given = [...request.url.searchParams.keys()];
      for (const name of new Set(given)) {
        const parameter = own[name] ?? own[jsonName(name)] ?? route.doc.parameters[name];
        if (parameter?.location !== "query") {
          problems.push(`parameter ${name}: not a parameter of ${route.method.id}`);
          continue;
        }
        const values = request.url.searchParams.getAll(name);
        if (values.length > 1 && !parameter.repeated) problems.push(`parameter ${name}: given ${values.length} times`);
        for (const value of values) problems.push(...checkParameter(name, parameter, value, options));
      }
      for (const [name, parameter] of Object.entries(own)) {
        if (parameter.required && parameter.location === "query" && !given.some((g) => jsonName(g) === name)) {
          problems.push(`parameter ${name}: required by ${route.method.id}`);
        }
      }
      if (request.body !== undefined) {
        if (!route.method.request) problems.push(`${route.method.id} takes no body`);
        else {
          const context: Context = { doc: route.doc, direction: "request", options };
          problems.push(...checkValue(context, route.method.request, request.body, "body"));
        }
      }
      return problems.map((problem) => `${route.method.id}: ${problem}`);
    },
    checkResponse(request, status, body) {
      const found = find(request);
      if (!found) return [unknown(request)];
      const { route } = found;
      if (status < 200 || status >= 300)
        return checkGoogleError(body).map((problem) => `${route.method.id}: ${problem}`);
      if (!route.method.response) return [];
      const context: Context = { doc: route.doc, direction: "response", options };
      return checkValue(context, route.method.response, body, "answer").map(
        (problem) => `${route.method.id}: ${problem}`,
      );
    },
  };
}
