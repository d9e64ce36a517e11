import fs from "node:fs";
import path from "node:path";

/**
 * Ahrefs' API v3 as its official Python SDK (ahrefs-python) describes it: the SDK is generated from
 * Ahrefs' OpenAPI document and ships, in `src/ahrefs/_search_index.json`, every endpoint's parameters
 * (types, required, enum values) and the fields of its answer rows; its generated client names each
 * endpoint's path and the key the rows come under. The connector pins the endpoints it calls as
 * `./sdk-index.json` (docs/connectors.md "Ahrefs"), extracted by this script:
 *   npx tsx apps/server/src/connectors/ahrefsV3/sdk-index-refresh.ts <sdk checkout> apps/server/src/connectors/ahrefsV3/sdk-index.json [url] [date]
 * which keeps the endpoints the pinned file already lists.
 */

export interface AhrefsParameter {
  name: string;
  type: string;
  required: boolean;
  enum_values?: string[];
}

export interface AhrefsEndpoint {
  /** The SDK's method name (site_explorer_metrics). */
  method: string;
  parameters: AhrefsParameter[];
  /** The key the answer's data comes under (`{"metrics": [...]}`), and whether it is a list of rows. */
  key: string;
  list: boolean;
  /** The answer row's fields and their SDK types ("int", "float | None", "str"…). */
  fields: Record<string, string>;
}

export interface AhrefsIndex {
  "x-pinned": { url: string; retrieved: string; release: string };
  /** "GET /v3/site-explorer/metrics" → the endpoint. */
  endpoints: Record<string, AhrefsEndpoint>;
}

interface SearchEntry {
  method: string;
  parameters: AhrefsParameter[];
  returns: { fields: { name: string; type: string }[] };
}

/** The endpoints of an SDK checkout, by "METHOD /v3/path", for the keys asked for. */
export function extractAhrefsIndex(checkout: string, wanted: string[]): AhrefsIndex["endpoints"] {
  const read = (file: string) => fs.readFileSync(path.join(checkout, "src/ahrefs", file), "utf8");
  const search = JSON.parse(read("_search_index.json")) as SearchEntry[];
  const methods = read("_generated_methods.py");
  const types = read("types/_generated.py");
  const endpoints: AhrefsIndex["endpoints"] = {};
  const calls =
    /def (\w+)\((?:(?!\n\s+(?:async )?def )[\s\S])*?self\._request\("([\w-]+)", "([\w-]+)", request, (\w+)([^\n]*)/g;
  for (const match of methods.matchAll(calls)) {
    const [, method, section, endpoint, response, rest] = match;
    const http = /http_method="(\w+)"/.exec(rest)?.[1] ?? "GET";
    const key = `${http} /v3/${section}/${endpoint}`;
    if (!wanted.includes(key) || endpoints[key]) continue;
    const entry = search.find((candidate) => candidate.method === method);
    const model = new RegExp(`class ${response}\\(BaseModel\\):[\\s\\S]*?\\n {4}(\\w+): ([^=]+)=`).exec(types);
    if (!entry || !model) throw new Error(`${key}: no SDK entry or response model`);
    endpoints[key] = {
      method,
      parameters: entry.parameters.map(({ name, type, required, enum_values }) => ({
        name,
        type,
        required,
        ...(enum_values && { enum_values }),
      })),
      key: model[1],
      list: model[2].trim().startsWith("list["),
      fields: Object.fromEntries(entry.returns.fields.map((field) => [field.name, field.type])),
    };
  }
  const missing = wanted.filter((key) => !endpoints[key]);
  if (missing.length > 0) throw new Error(`the SDK has no ${missing.join(", ")}`);
  return endpoints;
}
