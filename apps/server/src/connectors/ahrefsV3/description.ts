import fs from "node:fs/promises";
import type { ApiDescription, ApiDescriptionLoader } from "../kit/description";
import type { AhrefsEndpoint, AhrefsIndex } from "./sdk-index";

/**
 * Ahrefs' API v3 as its official SDK describes it (./sdk-index.json, extracted by ./sdk-index.ts;
 * docs/connectors.md "Ahrefs"): each endpoint's parameters (required ones, enums, dates, the `select`
 * columns among the answer's fields) and its answer (the rows under their key, each field typed).
 */

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `output`, the answer's format, which Ahrefs' reference lists on every endpoint
 * (https://docs.ahrefs.com/docs/api/reference/introduction): the SDK always asks JSON and leaves it out
 * of its index, so it is added here.
 */
const OUTPUT = { name: "output", type: "OutputEnum", required: false, enum_values: ["json", "csv", "xml", "php"] };

function checkParameter(endpoint: AhrefsEndpoint, name: string, value: string): string[] {
  const parameter = [...endpoint.parameters, OUTPUT].find((candidate) => candidate.name === name);
  if (!parameter) return [`unknown query parameter ${name}`];
  if (parameter.enum_values && !parameter.enum_values.includes(value)) {
    return [`${name}: "${value}" is not one of the described ${parameter.type} values`];
  }
  if (parameter.type === "SelectStr") {
    return value
      .split(",")
      .filter((column) => !(column in endpoint.fields))
      .map((column) => `select: "${column}" is not a column of the answer`);
  }
  if (parameter.type === "DateStr" && !DAY.test(value)) return [`${name}: "${value}" is not YYYY-MM-DD`];
  if (parameter.type === "int" && !/^\d+$/.test(value)) return [`${name}: "${value}" is not an integer`];
  if (parameter.type === "bool" && value !== "true" && value !== "false")
    return [`${name}: "${value}" is not a boolean`];
  return [];
}

/** Problems with one field's value against the SDK's type ("int", "float | None", "str", "list[str]", an enum). */
function checkValue(type: string, value: unknown, at: string): string[] {
  const nullable = type.endsWith(" | None");
  const base = type.replace(/ \| None$/, "");
  if (value === null) return nullable ? [] : [`${at}: null where the SDK says ${type}`];
  const fits: Record<string, (item: unknown) => boolean> = {
    int: (item) => Number.isInteger(item),
    float: (item) => typeof item === "number",
    str: (item) => typeof item === "string",
    bool: (item) => typeof item === "boolean",
  };
  if (fits[base]) return fits[base](value) ? [] : [`${at}: ${JSON.stringify(value)} where the SDK says ${type}`];
  if (base.startsWith("list[")) return Array.isArray(value) ? [] : [`${at}: not a list (${type})`];
  // The SDK's enums (CountryEnum1, BestPositionKindEnum…) are strings.
  if (/Enum\d*$/.test(base)) return typeof value === "string" ? [] : [`${at}: not a string (${type})`];
  return [];
}

function checkRow(endpoint: AhrefsEndpoint, row: unknown, at: string): string[] {
  if (!row || typeof row !== "object" || Array.isArray(row)) return [`${at}: not an object`];
  return Object.entries(row).flatMap(([name, value]) => {
    const type = endpoint.fields[name];
    return type ? checkValue(type, value, `${at}.${name}`) : [`${at}.${name}: not a field of ${endpoint.method}`];
  });
}

export function ahrefsDescription(index: AhrefsIndex): ApiDescription {
  const find = (method: string, url: URL) => index.endpoints[`${method} ${url.pathname.replace(/\/$/, "")}`];
  return {
    source: { url: index["x-pinned"].url, retrieved: index["x-pinned"].retrieved },
    checkRequest(request) {
      const label = `${request.method} ${request.url.pathname}`;
      const endpoint = find(request.method, request.url);
      if (!endpoint) return [`${label}: not an endpoint of the pinned SDK index`];
      const sent = [...request.url.searchParams];
      const problems = sent.flatMap(([name, value]) => checkParameter(endpoint, name, value));
      for (const parameter of endpoint.parameters) {
        if (parameter.required && !request.url.searchParams.has(parameter.name)) {
          problems.push(`required query parameter ${parameter.name} is missing`);
        }
      }
      return problems.map((problem) => `${label}: ${problem}`);
    },
    checkResponse(request, status, body) {
      const label = `${request.method} ${request.url.pathname} → ${status}`;
      const endpoint = find(request.method, request.url);
      if (!endpoint) return [`${label}: not an endpoint of the pinned SDK index`];
      const answer =
        body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
      if (!answer) return [`${label}: answer: not a JSON object`];
      if (status >= 400) return typeof answer.error === "string" ? [] : [`${label}: answer: not {error}`];
      const problems = Object.keys(answer)
        .filter((key) => key !== endpoint.key)
        .map((key) => `answer.${key}: not the answer's key (${endpoint.key})`);
      const data = answer[endpoint.key];
      if (data === undefined) problems.push(`answer.${endpoint.key}: missing`);
      else if (endpoint.list) {
        if (!Array.isArray(data)) problems.push(`answer.${endpoint.key}: not a list`);
        else problems.push(...data.flatMap((row, at) => checkRow(endpoint, row, `answer.${endpoint.key}[${at}]`)));
      } else if (data !== null) problems.push(...checkRow(endpoint, data, `answer.${endpoint.key}`));
      return problems.map((problem) => (problem.startsWith(label) ? problem : `${label}: ${problem}`));
    },
  };
}

let loaded: Promise<ApiDescription> | undefined;
/** The pinned SDK index, read when first asked for. */
export const ahrefsDescriptionLoader: ApiDescriptionLoader = () => {
  loaded ??= fs
    .readFile(new URL("./sdk-index.json", import.meta.url), "utf8")
    .then((text) => ahrefsDescription(JSON.parse(text) as AhrefsIndex));
  return loaded;
};
