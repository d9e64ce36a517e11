import type { ApiDescription, DescribedRequest } from "../kit/description";
import pinned from "./description/fields-v24.json";

/**
 * Google Ads against its own field metadata (./description/README.md): Google describes what a query may
 * select through GoogleAdsFieldService, not a discovery document, so the pin is, per resource the
 * connector queries FROM, the attributes, metrics and segments selectable with it in the pinned version.
 * A request is one of the two calls the connector makes (listAccessibleCustomers, searchStream) of that
 * version, with a GAQL query whose every field (selected, filtered, ordered) is selectable FROM its
 * resource; an answer's rows hold only the selected fields (and the resources' names Google adds).
 */

interface PinnedFields {
  pinned: { source: string; retrieved: string; version: string };
  resources: Record<string, { attributes: string[]; metrics: string[]; segments: string[] }>;
}

const fields = pinned as PinnedFields;
const VERSION = fields.pinned.version;

/** A GAQL query's parts (developers.google.com/google-ads/api/docs/query/grammar). */
export interface Gaql {
  select: string[];
  from: string;
  where: string[];
  orderBy: string[];
  limit: number | null;
}

const GAQL =
  /^\s*SELECT\s+(.+?)\s+FROM\s+([a-z_]+)(?:\s+WHERE\s+(.+?))?(?:\s+ORDER\s+BY\s+(.+?))?(?:\s+LIMIT\s+(\d+))?\s*$/is;
/** A condition: a field, an operator of the grammar, a value. */
const CONDITION =
  /^([a-z_.0-9]+)\s+(=|!=|>=|<=|>|<|IN|NOT IN|LIKE|NOT LIKE|CONTAINS ANY|CONTAINS ALL|CONTAINS NONE|IS NULL|IS NOT NULL|DURING|BETWEEN|REGEXP_MATCH|NOT REGEXP_MATCH)(?:\s+(.+))?$/i;

export function parseGaql(query: string): Gaql | null {
  const match = GAQL.exec(query);
  if (!match) return null;
  const list = (text: string | undefined) =>
    (text ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean);
  return {
    select: list(match[1]),
    from: match[2] ?? "",
    // BETWEEN's own AND joins its two dates, not two conditions.
    where: (match[3] ?? "")
      .split(/\s+AND\s+(?!'\d{4}-\d{2}-\d{2}')/i)
      .map((part) => part.trim())
      .filter(Boolean),
    orderBy: list(match[4]).map((part) => part.replace(/\s+(ASC|DESC)$/i, "")),
    limit: match[5] ? Number(match[5]) : null,
  };
}

/** Problems with one GAQL query against the pinned fields. */
export function checkGaql(query: string): string[] {
  const gaql = parseGaql(query);
  if (!gaql) return [`not a GAQL query (SELECT … FROM … [WHERE …] [ORDER BY …] [LIMIT n]): ${query}`];
  const resource = fields.resources[gaql.from];
  if (!resource) {
    return [`FROM ${gaql.from}: not a pinned resource (${Object.keys(fields.resources).join(", ")})`];
  }
  const selectable = new Set([...resource.attributes, ...resource.metrics, ...resource.segments]);
  const problems: string[] = [];
  const check = (field: string, where: string) => {
    if (!selectable.has(field)) problems.push(`${where} ${field}: not selectable FROM ${gaql.from} in ${VERSION}`);
  };
  for (const field of gaql.select) check(field, "SELECT");
  if (new Set(gaql.select).size !== gaql.select.length) problems.push("SELECT names a field twice");
  for (const condition of gaql.where) {
    const match = CONDITION.exec(condition);
    if (!match) problems.push(`WHERE ${condition}: not a condition of the grammar`);
    else check(match[1] ?? "", "WHERE");
  }
  for (const field of gaql.orderBy) check(field, "ORDER BY");
  return problems;
}

const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());

/** Every leaf of an answer's row as a dotted camelCase path. */
function leaves(value: unknown, at: string): string[] {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [at];
  return Object.entries(value).flatMap(([key, child]) => leaves(child, at ? `${at}.${key}` : key));
}

const SEARCH_STREAM = new RegExp(`^/${VERSION}/customers/(\\d+)/googleAds:searchStream$`);
const LIST_ACCESSIBLE = `/${VERSION}/customers:listAccessibleCustomers`;

function queryOf(request: DescribedRequest): string {
  const body = request.body as { query?: unknown } | undefined;
  return typeof body?.query === "string" ? body.query : "";
}

function checkRequest(request: DescribedRequest): string[] {
  const path = request.url.pathname;
  const method = request.method.toUpperCase();
  if (path === LIST_ACCESSIBLE) {
    return method === "GET" && request.body === undefined ? [] : [`${method} ${path}: Google answers only a bare GET`];
  }
  if (!SEARCH_STREAM.test(path)) {
    return [
      `${method} ${path}: not a call of Google Ads ${VERSION} the connector is described for (searchStream, listAccessibleCustomers)`,
    ];
  }
  if (method !== "POST") return [`${method} ${path}: searchStream is a POST`];
  const body = request.body;
  if (typeof body !== "object" || body === null) return ["searchStream: the body is not a JSON object"];
  const unknown = Object.keys(body).filter((key) => !["query", "summaryRowSetting"].includes(key));
  return [
    ...unknown.map((key) => `searchStream: body.${key}: unknown property`),
    ...checkGaql(queryOf(request)).map((problem) => `searchStream: ${problem}`),
  ];
}

/** A failure: google.rpc.Status, wrapped in an array by the streaming method. */
function checkFailure(body: unknown): string[] {
  const status = Array.isArray(body) ? body[0] : body;
  const error = (status as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error?.code === "number" && typeof error.message === "string"
    ? []
    : [`a failure's body is not Google's {"error": {code, message, …}}: ${JSON.stringify(body)}`];
}

function checkStream(request: DescribedRequest, body: unknown): string[] {
  if (!Array.isArray(body)) return ["searchStream: the answer is not an array of batches"];
  const gaql = parseGaql(queryOf(request));
  const selected = new Set((gaql?.select ?? []).map((field) => field.split(".").map(camel).join(".")));
  const expectedMask = [...selected].join(",");
  const problems: string[] = [];
  body.forEach((batch: Record<string, unknown>, index) => {
    for (const key of Object.keys(batch ?? {})) {
      if (!["results", "fieldMask", "requestId", "summaryRow", "queryResourceConsumption"].includes(key)) {
        problems.push(`searchStream: answer[${index}].${key}: unknown property`);
      }
    }
    if (batch.fieldMask !== undefined && batch.fieldMask !== expectedMask) {
      problems.push(
        `searchStream: answer[${index}].fieldMask "${batch.fieldMask}" is not the selected "${expectedMask}"`,
      );
    }
    const rows = Array.isArray(batch.results) ? batch.results : [];
    rows.forEach((row, at) => {
      for (const leaf of leaves(row, "")) {
        // Google adds each resource's name (campaign.resourceName) to what was selected.
        if (selected.has(leaf) || leaf.endsWith(".resourceName")) continue;
        problems.push(`searchStream: answer[${index}].results[${at}].${leaf}: not selected by the query`);
      }
    });
  });
  return problems;
}

export const description: ApiDescription = {
  source: { url: fields.pinned.source, retrieved: fields.pinned.retrieved },
  checkRequest,
  checkResponse(request, status, body) {
    if (status < 200 || status >= 300) return checkFailure(body);
    if (request.url.pathname === LIST_ACCESSIBLE) {
      const names = (body as { resourceNames?: unknown } | null)?.resourceNames;
      const fine =
        typeof body === "object" &&
        body !== null &&
        Object.keys(body).every((key) => key === "resourceNames") &&
        (names === undefined || (Array.isArray(names) && names.every((name) => /^customers\/\d+$/.test(String(name)))));
      return fine
        ? []
        : [`listAccessibleCustomers: expected {"resourceNames": ["customers/…"]}, got ${JSON.stringify(body)}`];
    }
    return checkStream(request, body);
  },
};
