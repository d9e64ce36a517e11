/**
 * Meta publishes no OpenAPI document for the Graph API; its official business SDKs are generated from
 * Meta's own API specification per Graph version and ship, for each object, its fields with their types
 * and the enums of its parameters (`AdsInsights.Breakdowns`, `AdsInsights.Level`…). The connectors pin
 * the objects they use, extracted from the Python SDK's `facebook_business/adobjects/*.py` of the release
 * closest to the pinned Graph version, as JSON in their folder (`graph-sdk.json`, docs/connectors.md), and
 * check requests (fields, breakdowns, levels) and answers (field names and types) against them.
 *   npx tsx apps/server/src/connectors/meta/graph-sdk-refresh.ts <sdk checkout> <folder>/graph-sdk.json [url] [date]
 * rewrites the pinned file from an SDK checkout, keeping the objects it already lists.
 */

export interface GraphSdkObject {
  /** Field name → the SDK's type ("string", "unsigned int", "list<AdsActionStats>", "Object"…). */
  fields: Record<string, string>;
  /** The object's enums (parameter values), by the SDK's class name. */
  enums: Record<string, string[]>;
}

export interface GraphSdk {
  "x-pinned": {
    url: string;
    retrieved: string;
    release: string;
    /** Later versions these objects stand for while Meta has published no SDK for them, and why. */
    carriedTo?: string[];
    carriedBecause?: string;
  };
  /** SDK class name → its python module (`AdsInsights` → `adsinsights`) and what it declares. */
  objects: Record<string, GraphSdkObject & { module: string }>;
}

/** Reads one generated SDK module: its `_field_types` and its enum classes (`class Level:` with `x = 'x'`). */
export function parseSdkModule(text: string): GraphSdkObject {
  const fields: Record<string, string> = {};
  const enums: Record<string, string[]> = {};
  const lines = text.split("\n");
  let inFields = false;
  let inEnum: string | null = null;
  for (const line of lines) {
    if (/^ {4}_field_types = \{/.test(line)) {
      inFields = true;
      continue;
    }
    if (inFields) {
      const field = /^ {8}'([^']+)': '([^']+)',?$/.exec(line);
      if (field) fields[field[1]] = field[2];
      else if (/^ {4}\}/.test(line)) inFields = false;
      continue;
    }
    const opened = /^ {4}class (\w+):$/.exec(line);
    if (opened) {
      inEnum = opened[1];
      enums[inEnum] = [];
      continue;
    }
    if (inEnum) {
      const value = /^ {8}\w+ = '([^']*)'$/.exec(line);
      if (value) enums[inEnum].push(value[1]);
      else if (line.trim() !== "") inEnum = null;
    }
  }
  for (const [name, values] of Object.entries(enums)) if (values.length === 0) delete enums[name];
  return { fields, enums };
}

const PRIMITIVE: Record<string, string> = {
  string: "string",
  datetime: "string",
  int: "number",
  "unsigned int": "number",
  float: "number",
  double: "number",
  bool: "boolean",
};

/**
 * Problems with a value the SDK types as `type` ([] when it fits): a primitive must be that JSON type, a
 * `list<…>` an array of fitting items, a known object an object with only its fields; anything else
 * (`Object`, `map<…>`, an object this pin does not hold) is taken as it comes.
 */
export function checkSdkValue(sdk: GraphSdk, type: string, value: unknown, at: string): string[] {
  const list = /^list<(.+)>$/.exec(type);
  if (list) {
    if (!Array.isArray(value)) return [`${at}: ${typeof value} where the SDK says ${type}`];
    return value.flatMap((item, index) => checkSdkValue(sdk, list[1], item, `${at}[${index}]`));
  }
  const primitive = PRIMITIVE[type];
  if (primitive)
    return typeof value === primitive ? [] : [`${at}: ${JSON.stringify(value)} where the SDK says ${type}`];
  const object = sdk.objects[type];
  if (!object) return [];
  if (!value || typeof value !== "object" || Array.isArray(value)) return [`${at}: not an object (${type})`];
  return checkSdkFields(sdk, type, value as Record<string, unknown>, at);
}

/** An object's properties against an SDK object's fields (`extra` names allowed besides, untyped). */
export function checkSdkFields(
  sdk: GraphSdk,
  name: string,
  value: Record<string, unknown>,
  at: string,
  extra: readonly string[] = [],
): string[] {
  const object = sdk.objects[name];
  if (!object) throw new Error(`the pinned SDK objects have no ${name}`);
  return Object.entries(value).flatMap(([key, item]) => {
    const type = object.fields[key];
    if (type) return checkSdkValue(sdk, type, item, `${at}.${key}`);
    return extra.includes(key) ? [] : [`${at}.${key}: not a field of ${name}`];
  });
}

/** A comma list's entries that are not among `allowed` (a request's `fields`, `breakdowns`). */
export const notAmong = (list: string, allowed: readonly string[]): string[] =>
  list.split(",").filter((entry) => !allowed.includes(entry));
