import fs from "node:fs/promises";
import type { ApiDescription, ApiDescriptionLoader, DescribedRequest } from "../kit/description";
import type { MailchimpEndpoint, MailchimpIndex } from "./sdk-index";

/**
 * Mailchimp's Marketing API as its official Node.js SDK describes it (./sdk-index.json, extracted by
 * ./sdk-index.ts; docs/connectors.md "The providers' own API descriptions"): each endpoint's path and
 * method and its query parameters, typed as the SDK types them, with the limits its words state
 * (`count`: "Maximum value is 1000"). The SDK does not describe answers (it names models the package does
 * not ship), so an answer is checked only as JSON, and an error as Mailchimp's problem details.
 */

/** ISO 8601 with an offset, as the SDK's Date parameters say ("2015-10-21T15:41:36+00:00"). */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function checkParameter(endpoint: MailchimpEndpoint, name: string, value: string): string[] {
  const parameter = endpoint.query.find((candidate) => candidate.name === name);
  if (!parameter) return [`unknown query parameter ${name}`];
  if (parameter.type === "Number") {
    if (!/^\d+$/.test(value)) return [`${name}: "${value}" is not a whole number`];
    const most = /Maximum value is (\d+)/.exec(parameter.description)?.[1];
    if (most && Number(value) > Number(most)) return [`${name}: ${value} is over the maximum ${most}`];
  }
  if (parameter.type === "Date" && !INSTANT.test(value)) return [`${name}: "${value}" is not an ISO 8601 time`];
  if (parameter.type === "Boolean" && value !== "true" && value !== "false") {
    return [`${name}: "${value}" is not a boolean`];
  }
  return [];
}

/** The endpoint a request's path is (after the API's `/3.0`), with its path's template. */
function locate(index: MailchimpIndex, request: DescribedRequest) {
  const path = /\/3\.0(\/.*)$/.exec(request.url.pathname)?.[1];
  if (!path) return null;
  for (const [key, endpoint] of Object.entries(index.endpoints)) {
    const [method, template = ""] = key.split(" ");
    const pattern = new RegExp(`^${template.replace(/\{\w+\}/g, "[^/]+")}$`);
    if (method === request.method && pattern.test(path)) return { key, endpoint };
  }
  return { key: `${request.method} ${path}`, endpoint: null };
}

/** The description of the Marketing API calls over the pinned SDK index. */
export function mailchimpSdkDescription(index: MailchimpIndex): ApiDescription {
  return {
    source: { url: index["x-pinned"].url, retrieved: index["x-pinned"].retrieved },
    // The OAuth login (login.mailchimp.com) is not the Marketing API.
    covers: (request) => locate(index, request) !== null,
    checkRequest(request) {
      const found = locate(index, request);
      if (!found) return [`${request.url.pathname}: not a Marketing API path`];
      if (!found.endpoint) return [`${found.key}: not an endpoint the SDK describes`];
      const { key, endpoint } = found;
      return [...request.url.searchParams.entries()]
        .flatMap(([name, value]) => checkParameter(endpoint, name, value))
        .map((problem) => `${key}: ${problem}`);
    },
    checkResponse(request, status, body) {
      const found = locate(index, request);
      if (!found?.endpoint) return [`${request.url.pathname}: not an endpoint the SDK describes`];
      const problems: string[] = [];
      if (status >= 400) {
        const problem = body as Record<string, unknown> | null;
        if (!problem || typeof problem.title !== "string" || typeof problem.status !== "number") {
          problems.push("answer: not Mailchimp's problem details ({type, title, status, detail, instance})");
        }
      } else if (!body || typeof body !== "object" || Array.isArray(body)) problems.push("answer: not a JSON object");
      return problems.map((problem) => `${found.key} → ${status}: ${problem}`);
    },
  };
}

let loaded: Promise<ApiDescription> | undefined;
/** The pinned SDK index, read when first asked for. */
export const mailchimpDescription: ApiDescriptionLoader = () => {
  loaded ??= fs
    .readFile(new URL("./sdk-index.json", import.meta.url), "utf8")
    .then((text) => mailchimpSdkDescription(JSON.parse(text) as MailchimpIndex));
  return loaded;
};
