import fs from "node:fs";
import path from "node:path";

/**
 * Mailchimp's Marketing API as its official Node.js SDK (mailchimp-marketing-node) describes it. Mailchimp
 * generates the SDK from its Marketing OpenAPI document, whose own copy could not be obtained (the
 * codegen repository's `spec/marketing.json` is kept out of its snapshots; docs/connectors.md). Each
 * generated method in `src/api/*Api.js` names its path and HTTP method and documents every query
 * parameter with its type and words (`count`: "Maximum value is 1000"); it does not describe answers (it
 * names a model the package does not ship). The connector pins the endpoints it calls as
 * `./sdk-index.json`, extracted by this script:
 *   npx tsx apps/server/src/connectors/mailchimp/sdk-index-refresh.ts <sdk checkout> apps/server/src/connectors/mailchimp/sdk-index.json [url] [date]
 * which keeps the endpoints the pinned file already lists.
 */

export interface MailchimpParameter {
  name: string;
  /** The SDK's type: "Number", "Date", "Array.<String>", "module:model/String" (an enum it does not list)… */
  type: string;
  /** The SDK's words for it (limits and formats are stated there). */
  description: string;
}

export interface MailchimpEndpoint {
  /** The SDK's method (getAllCampaignReports). */
  method: string;
  /** Path parameters, by their name in the path (`/lists/{list_id}/activity`). */
  pathParameters: string[];
  query: MailchimpParameter[];
  /** The model the SDK names for the answer (not shipped in the package). */
  returns: string;
}

export interface MailchimpIndex {
  "x-pinned": { url: string; retrieved: string; release: string };
  /** "GET /reports" (paths after the API's `/3.0`) → the endpoint. */
  endpoints: Record<string, MailchimpEndpoint>;
}

/** The endpoints of an SDK checkout, by "METHOD /path", for the keys asked for. */
export function extractMailchimpIndex(checkout: string, wanted: string[]): MailchimpIndex["endpoints"] {
  const endpoints: MailchimpIndex["endpoints"] = {};
  const folder = path.join(checkout, "src/api");
  const method =
    /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*this\.(\w+)WithHttpInfo = function[\s\S]*?var pathParams = \{([\s\S]*?)\};[\s\S]*?var queryParams = \{([\s\S]*?)\};[\s\S]*?callApi\(\s*'([^']+)', '(\w+)'/g;
  for (const file of fs.readdirSync(folder).sort()) {
    const text = fs.readFileSync(path.join(folder, file), "utf8");
    for (const [, doc = "", name = "", pathBlock = "", queryBlock = "", route = "", http = ""] of text.matchAll(
      method,
    )) {
      const key = `${http} ${route}`;
      if (!wanted.includes(key) || endpoints[key]) continue;
      const documented = new Map(
        [...doc.matchAll(/@param \{([^}]+)\} (?:opts\.)?(\w+) ([^\n]*)/g)].map(
          ([, type = "", camel = "", words = ""]) => [camel, { type, description: words.trim() }],
        ),
      );
      const query = [...queryBlock.matchAll(/'(\w+)': [^\n]*?opts\['(\w+)'\]/g)].map(([, snake = "", camel = ""]) => ({
        name: snake,
        ...(documented.get(camel) ?? documented.get(snake) ?? { type: "unknown", description: "" }),
      }));
      endpoints[key] = {
        method: name,
        pathParameters: [...pathBlock.matchAll(/'(\w+)':/g)].map(([, param = ""]) => param),
        query,
        returns: /@return \{Promise\}[^\n]*data of type \{@link module:model\/(\w+)\}/.exec(doc)?.[1] ?? "",
      };
    }
  }
  const missing = wanted.filter((key) => !endpoints[key]);
  if (missing.length > 0) throw new Error(`not in the SDK: ${missing.join(", ")}`);
  return endpoints;
}
