import type { ApiDescription, DescribedRequest } from "./description";

/**
 * A small OpenAPI 3 checker behind `ApiDescription` (./description.ts) for the providers that publish an
 * OpenAPI document: a request is matched to its path template and method, its query parameters are
 * checked against the declared ones (unknown names, required ones, types, enums, comma lists), its body
 * and the answer against the described schemas ($ref, allOf/oneOf/anyOf, nullable, enums, required
 * properties; properties a closed schema does not list are flagged). Kept small on purpose: the pinned
 * documents are trimmed to what a connector uses (./openapi-trim.ts), and the checks are the ones the
 * connectors' tests need, not a full JSON Schema implementation.
 */

export interface Schema {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  nullable?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
}

interface Parameter {
  $ref?: string;
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
  explode?: boolean;
}

interface MediaTypes {
  content?: Record<string, { schema?: Schema }>;
  $ref?: string;
}

export interface Operation {
  parameters?: Parameter[];
  requestBody?: MediaTypes & { required?: boolean };
  responses?: Record<string, MediaTypes>;
}

export interface OpenApiDocument {
  openapi: string;
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation | Parameter[]>>;
  components?: Record<string, Record<string, unknown>>;
  /** Where the trimmed copy came from, when, and which operations it keeps (./openapi-trim.ts). */
  "x-pinned"?: Pinned;
}

export interface Pinned {
  url: string;
  retrieved: string;
  /** "GET /api/metrics" and so on: the operations the trim keeps. */
  operations: string[];
}

export interface OpenApiOptions {
  /** The path prefix the document's paths sit under (its first server's path when absent). */
  basePath?: string;
  /** The provider answers a path with or without its trailing slash alike (Klaviyo). */
  ignoreTrailingSlash?: boolean;
  /**
   * JSON:API sparse fieldsets: a request naming `fields[…]` gets only those attributes, so an answer's
   * `attributes` objects may leave out properties the schema requires.
   */
  sparseFieldsets?: boolean;
}

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];

/** Resolves a local `$ref` (`#/components/schemas/X`); anything else is returned as it is. */
export function resolve<T>(document: OpenApiDocument, value: T): T {
  let current: unknown = value;
  for (let depth = 0; depth < 20; depth++) {
    const ref = (current as { $ref?: unknown } | null)?.$ref;
    if (typeof ref !== "string") return current as T;
    if (!ref.startsWith("#/")) throw new Error(`only local references are supported: ${ref}`);
    current = ref
      .slice(2)
      .split("/")
      .reduce<unknown>(
        (node, key) => (node as Record<string, unknown> | undefined)?.[key.replace(/~1/g, "/").replace(/~0/g, "~")],
        document,
      );
    if (current === undefined) throw new Error(`unresolved reference ${ref}`);
  }
  throw new Error("reference chain too long");
}

const typeOf = (value: unknown): string =>
  value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "number" ? "number" : typeof value;

/**
 * How an answer is read: `sparse` names the places (by their `at` path) whose required properties may be
 * left out because the request asked for a subset of them (JSON:API's sparse fieldsets, `fields[campaign]=name`).
 */
export interface CheckContext {
  sparse?: RegExp;
}

/** Problems with `value` against `schema` ([] when it matches), each prefixed with where it is (`$.data[0].id`). */
export function checkSchema(
  document: OpenApiDocument,
  schemaOrRef: Schema,
  value: unknown,
  at = "$",
  context: CheckContext = {},
): string[] {
  const schema = resolve(document, schemaOrRef);
  if (value === null)
    return schema.nullable || schema.type === "null" ? [] : [`${at}: null where the schema does not allow it`];
  const problems: string[] = [];
  for (const part of schema.allOf ?? []) problems.push(...checkSchema(document, part, value, at, context));
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives && !alternatives.some((option) => checkSchema(document, option, value, at, context).length === 0)) {
    problems.push(`${at}: matches none of the ${alternatives.length} described alternatives`);
  }
  if (schema.enum && !schema.enum.includes(value)) {
    problems.push(`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  }
  const type = schema.type ?? (schema.properties ? "object" : undefined);
  if (!type) return problems;
  const actual = typeOf(value);
  const fits =
    actual === type ||
    (type === "integer" && actual === "number" && Number.isInteger(value)) ||
    (type === "number" && actual === "number");
  if (!fits) return [...problems, `${at}: ${actual} where the schema says ${type}`];
  if (type === "array") {
    (value as unknown[]).forEach((item, index) => {
      if (schema.items) problems.push(...checkSchema(document, schema.items, item, `${at}[${index}]`, context));
    });
  }
  if (type === "object") problems.push(...checkObject(document, schema, value as Record<string, unknown>, at, context));
  return problems;
}

function checkObject(
  document: OpenApiDocument,
  schema: Schema,
  value: Record<string, unknown>,
  at: string,
  context: CheckContext,
): string[] {
  const problems: string[] = [];
  const properties = schema.properties ?? {};
  const sparse = context.sparse?.test(at) ?? false;
  for (const name of sparse ? [] : (schema.required ?? [])) {
    if (!(name in value)) problems.push(`${at}: required property "${name}" is missing`);
  }
  for (const [name, item] of Object.entries(value)) {
    const where = `${at}.${name}`;
    if (properties[name]) problems.push(...checkSchema(document, properties[name], item, where, context));
    else if (schema.additionalProperties === false) problems.push(`${where}: not a described property`);
    else if (typeof schema.additionalProperties === "object") {
      problems.push(...checkSchema(document, schema.additionalProperties, item, where, context));
    }
  }
  return problems;
}

interface Found {
  template: string;
  operation: Operation;
  parameters: Parameter[];
}

function matchPath(templates: string[], path: string): string | undefined {
  const segments = path.split("/");
  const fits = templates.filter((template) => {
    const parts = template.split("/");
    return (
      parts.length === segments.length &&
      parts.every((part, index) => (/^\{.+\}$/.test(part) ? segments[index] !== "" : part === segments[index]))
    );
  });
  // A literal segment wins over a template one (`/lists/{id}` loses to `/lists/activity` at that place).
  return fits.sort((a, b) => (b.match(/\{/g)?.length ?? 0) - (a.match(/\{/g)?.length ?? 0)).pop();
}

function queryValues(parameter: Parameter, value: string): string[] {
  const schema = parameter.schema;
  return schema?.type === "array" && parameter.explode === false ? value.split(",") : [value];
}

function checkQueryValue(document: OpenApiDocument, parameter: Parameter, raw: string): string[] {
  const schema = resolve(document, parameter.schema ?? {});
  const itemSchema = schema.type === "array" ? resolve(document, schema.items ?? {}) : schema;
  const problems: string[] = [];
  for (const text of queryValues(parameter, raw)) {
    const where = `query parameter ${parameter.name}`;
    if (itemSchema.enum && !itemSchema.enum.includes(text)) {
      problems.push(`${where}: "${text}" is not one of ${JSON.stringify(itemSchema.enum)}`);
    } else if (itemSchema.type === "integer" && !/^-?\d+$/.test(text)) {
      problems.push(`${where}: "${text}" is not an integer`);
    } else if (itemSchema.type === "number" && !Number.isFinite(Number(text))) {
      problems.push(`${where}: "${text}" is not a number`);
    } else if (itemSchema.type === "boolean" && text !== "true" && text !== "false") {
      problems.push(`${where}: "${text}" is not true or false`);
    }
  }
  return problems;
}

function bodySchema(document: OpenApiDocument, media: MediaTypes | undefined): Schema | undefined {
  const content = media ? resolve(document, media).content : undefined;
  if (!content) return undefined;
  const json = Object.entries(content).find(([type]) => /json/.test(type)) ?? Object.entries(content)[0];
  return json?.[1].schema;
}

/** The `ApiDescription` of an OpenAPI 3 document (a connector's pinned, trimmed copy). */
export function openApiDescription(document: OpenApiDocument, options: OpenApiOptions = {}): ApiDescription {
  const pinned = document["x-pinned"];
  if (!pinned) throw new Error("the pinned document has no x-pinned source");
  const basePath = (options.basePath ?? new URL(document.servers?.[0]?.url ?? "http://x/").pathname).replace(/\/$/, "");
  const templates = Object.keys(document.paths);

  const find = (request: DescribedRequest): Found | string => {
    let path = request.url.pathname;
    if (basePath && !path.startsWith(`${basePath}/`)) return `${path} is not under ${basePath}`;
    path = path.slice(basePath.length);
    if (options.ignoreTrailingSlash && path.length > 1) path = path.replace(/\/$/, "");
    const template = matchPath(templates, path);
    if (!template) return `${request.method} ${path}: no such path in the description`;
    const item = document.paths[template];
    const operation = item[request.method.toLowerCase()] as Operation | undefined;
    if (!operation || !METHODS.includes(request.method.toLowerCase())) {
      return `${request.method} ${template}: the path has no such method`;
    }
    const shared = (item.parameters as Parameter[] | undefined) ?? [];
    const parameters = [...shared, ...(operation.parameters ?? [])].map((parameter) => resolve(document, parameter));
    return { template, operation, parameters };
  };

  return {
    source: { url: pinned.url, retrieved: pinned.retrieved },
    checkRequest(request) {
      const found = find(request);
      if (typeof found === "string") return [found];
      const label = `${request.method} ${found.template}`;
      const query = found.parameters.filter((parameter) => parameter.in === "query");
      const problems: string[] = [];
      const sent = new Set<string>();
      for (const [name, value] of request.url.searchParams) {
        sent.add(name);
        const parameter = query.find((candidate) => candidate.name === name);
        if (!parameter) problems.push(`${label}: unknown query parameter ${name}`);
        else problems.push(...checkQueryValue(document, parameter, value).map((problem) => `${label}: ${problem}`));
      }
      for (const parameter of query) {
        if (parameter.required && !sent.has(parameter.name)) {
          problems.push(`${label}: required query parameter ${parameter.name} is missing`);
        }
      }
      const schema = bodySchema(document, found.operation.requestBody);
      if (request.body !== undefined && !schema) problems.push(`${label}: the operation takes no body`);
      if (request.body === undefined && found.operation.requestBody?.required) {
        problems.push(`${label}: the operation needs a body`);
      }
      if (request.body !== undefined && schema) {
        problems.push(...checkSchema(document, schema, request.body, "body").map((problem) => `${label}: ${problem}`));
      }
      return problems;
    },
    checkResponse(request, status, body) {
      const found = find(request);
      if (typeof found === "string") return [found];
      const label = `${request.method} ${found.template} → ${status}`;
      const responses = found.operation.responses ?? {};
      const described = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
      if (!described) return [`${label}: no such status described`];
      const schema = bodySchema(document, described);
      if (!schema) return [];
      const sparse = [...request.url.searchParams.keys()].some((name) => name.startsWith("fields["));
      const context = options.sparseFieldsets && sparse ? { sparse: /\.attributes$/ } : {};
      return checkSchema(document, schema, body, "answer", context).map((problem) => `${label}: ${problem}`);
    },
  };
}

/** A connector's loader for its pinned OpenAPI copy (`new URL("./openapi.json", import.meta.url)`), read when first asked for. */
export function openApiLoader(file: URL, options: OpenApiOptions = {}): () => Promise<ApiDescription> {
  let loaded: Promise<ApiDescription> | undefined;
  return () => {
    loaded ??= import("node:fs/promises").then(async (fs) =>
      openApiDescription(JSON.parse(await fs.readFile(file, "utf8")) as OpenApiDocument, options),
    );
    return loaded;
  };
}
