import fs from "node:fs/promises";
import type { ApiDescription, ApiDescriptionLoader, DescribedRequest } from "../kit/description";

/**
 * WooCommerce's REST API as its own controllers describe it (./rest-schema.json, docs/connectors.md
 * "The providers' own API descriptions"): each route's query arguments and item schema, the JSON Schema
 * WordPress serves a store's `OPTIONS` from. The checks are the ones WordPress applies to a request
 * (`rest_validate_request_arg`: types, enums, minimum/maximum, `date-time` as `rest_parse_date` reads it,
 * `date` as YYYY-MM-DD) plus a closed reading of the answer (a field the schema does not list is reported,
 * so the fake cannot drift from the described shape).
 */

export interface WooSchema {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, WooSchema>;
  additionalProperties?: WooSchema;
  items?: WooSchema;
  required?: string[];
}

interface WooRoute {
  methods: string[];
  /** Whether the answer is a list of items (products, categories, the legacy sales report). */
  collection: boolean;
  args: Record<string, WooSchema>;
  schema: WooSchema;
}

export interface WooRestSchema {
  "x-pinned": { url: string; retrieved: string };
  /** Arguments every route takes (WordPress' `_fields`, WooCommerce's query-string key). */
  globals: Record<string, WooSchema>;
  routes: Record<string, WooRoute>;
  /** WordPress' error answer `{code, message, data: {status}}`. */
  error: WooSchema;
}

/** `rest_parse_date`'s pattern: a date and a time, optional fraction and offset. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}(?::\d{2})?)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A query string's value against an argument's schema, as WordPress validates it. */
function checkArgument(name: string, schema: WooSchema, value: string): string[] {
  const types = [schema.type ?? "string"].flat();
  if (types.includes("array")) {
    return value
      .split(",")
      .flatMap((item) => (schema.items ? checkArgument(`${name}[]`, schema.items, item.trim()) : []));
  }
  if (schema.enum && !schema.enum.includes(value)) {
    return [`${name}: "${value}" is not one of ${schema.enum.join(", ")}`];
  }
  if (types.includes("integer")) {
    if (!/^-?\d+$/.test(value)) return [`${name}: "${value}" is not an integer`];
    const number = Number(value);
    if (schema.minimum !== undefined && number < schema.minimum)
      return [`${name}: ${value} is below ${schema.minimum}`];
    if (schema.maximum !== undefined && number > schema.maximum)
      return [`${name}: ${value} is above ${schema.maximum}`];
  }
  if (types.includes("boolean") && !["true", "false", "1", "0"].includes(value)) {
    return [`${name}: "${value}" is not a boolean`];
  }
  if (schema.format === "date-time" && !DATE_TIME.test(value)) return [`${name}: "${value}" is not a date-time`];
  if (schema.format === "date" && !DATE.test(value)) return [`${name}: "${value}" is not YYYY-MM-DD`];
  return [];
}

const typeOf = (value: unknown): string =>
  value === null
    ? "null"
    : Array.isArray(value)
      ? "array"
      : Number.isInteger(value)
        ? "integer"
        : typeof value === "number"
          ? "number"
          : typeof value;

/** Whether a value is of one of the schema's types (`date-time` is WooCommerce's way of writing a date string). */
function fitsType(types: string[], value: unknown): boolean {
  const actual = typeOf(value);
  return types.some(
    (type) =>
      type === actual || (type === "number" && actual === "integer") || (type === "date-time" && actual === "string"),
  );
}

/** An answer's value against a schema: types, enums, date-times, and no property the schema does not list. */
export function checkValue(schema: WooSchema, value: unknown, at: string): string[] {
  const types = schema.type ? [schema.type].flat() : [];
  if (types.length > 0 && !fitsType(types, value)) {
    return [`${at}: ${JSON.stringify(value)} is not ${types.join(" or ")}`];
  }
  if (schema.enum && !schema.enum.includes(value)) return [`${at}: ${JSON.stringify(value)} is not one of the enum`];
  if (typeof value === "string" && (schema.format === "date-time" || types.includes("date-time"))) {
    return DATE_TIME.test(value) ? [] : [`${at}: "${value}" is not a date-time`];
  }
  if (Array.isArray(value)) {
    return schema.items
      ? value.flatMap((item, index) => checkValue(schema.items as WooSchema, item, `${at}[${index}]`))
      : [];
  }
  if (value && typeof value === "object") {
    const problems = (schema.required ?? [])
      .filter((name) => !(name in value))
      .map((name) => `${at}.${name}: required, missing`);
    for (const [name, item] of Object.entries(value)) {
      // Every item WordPress prepares for a collection may carry its links.
      if (name === "_links") continue;
      const property = schema.properties?.[name] ?? schema.additionalProperties;
      if (property) problems.push(...checkValue(property, item, `${at}.${name}`));
      else if (schema.properties) problems.push(`${at}.${name}: not a described field`);
    }
    return problems;
  }
  return [];
}

/** The route a request is for: its path after `/wp-json` (a shop may live under a sub-path). */
function routeOf(description: WooRestSchema, url: URL): { key: string; route: WooRoute | undefined } {
  const at = url.pathname.indexOf("/wp-json/");
  const key = at >= 0 ? url.pathname.slice(at + "/wp-json".length).replace(/\/$/, "") : url.pathname;
  return { key, route: description.routes[key] };
}

export function wooCommerceDescription(description: WooRestSchema): ApiDescription {
  return {
    source: { url: description["x-pinned"].url, retrieved: description["x-pinned"].retrieved },
    checkRequest(request: DescribedRequest) {
      const { key, route } = routeOf(description, request.url);
      const label = `${request.method} ${key}`;
      if (!route) return [`${label}: not a route of the pinned schema`];
      if (!route.methods.includes(request.method)) return [`${label}: the route does not take ${request.method}`];
      const problems = [...request.url.searchParams].flatMap(([name, value]) => {
        const schema = route.args[name] ?? description.globals[name];
        return schema ? checkArgument(name, schema, value) : [`unknown query argument ${name}`];
      });
      return problems.map((problem) => `${label}: ${problem}`);
    },
    checkResponse(request, status, body) {
      const { key, route } = routeOf(description, request.url);
      const label = `${request.method} ${key} → ${status}`;
      if (!route) return [`${label}: not a route of the pinned schema`];
      const problems =
        status >= 400
          ? checkValue(description.error, body, "answer")
          : route.collection
            ? Array.isArray(body)
              ? body.flatMap((item, index) => checkValue(route.schema, item, `answer[${index}]`))
              : ["answer: not a list"]
            : checkValue(route.schema, body, "answer");
      return problems.map((problem) => `${label}: ${problem}`);
    },
  };
}

let loaded: Promise<ApiDescription> | undefined;
/** The pinned schema, read when first asked for. */
export const wooCommerceDescriptionLoader: ApiDescriptionLoader = () => {
  loaded ??= fs
    .readFile(new URL("./rest-schema.json", import.meta.url), "utf8")
    .then((text) => wooCommerceDescription(JSON.parse(text) as WooRestSchema));
  return loaded;
};
