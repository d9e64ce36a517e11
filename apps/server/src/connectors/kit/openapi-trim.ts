import type { OpenApiDocument, Pinned } from "./openapi";

/**
 * Trims a provider's full OpenAPI document to the operations a connector uses, closed over the `$ref`s
 * they reach, so the copy pinned in the connector's folder stays small and its diff readable when it is
 * refreshed. The operations kept are the pinned copy's own `x-pinned.operations`:
 *   npx tsx apps/server/src/connectors/kit/openapi-trim-refresh.ts <full.json> <connector>/openapi.json [url] [date]
 * rewrites `<connector>/openapi.json` from the full document (the url and date of the new source, when
 * given, replace the pinned ones; the date defaults to today).
 */
export function trimOpenApi(full: OpenApiDocument, pinned: Pinned): OpenApiDocument {
  const paths: OpenApiDocument["paths"] = {};
  for (const operation of pinned.operations) {
    const [method, path] = operation.split(" ");
    const item = full.paths[path];
    const found = item?.[method.toLowerCase()];
    if (!found) throw new Error(`the full document has no ${operation}`);
    paths[path] = { ...(paths[path] ?? {}), [method.toLowerCase()]: found };
    if (item.parameters) paths[path].parameters = item.parameters;
  }
  const components: Record<string, Record<string, unknown>> = {};
  const pending: unknown[] = [paths];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) pending.push(...node);
    else if (node && typeof node === "object") {
      for (const [key, value] of Object.entries(node)) {
        if (key === "$ref" && typeof value === "string") {
          const [, , kind, name] = value.split("/");
          if (components[kind]?.[name] !== undefined) continue;
          const target = full.components?.[kind]?.[name];
          if (target === undefined) throw new Error(`unresolved reference ${value}`);
          components[kind] = { ...(components[kind] ?? {}), [name]: target };
          pending.push(target);
        } else pending.push(value);
      }
    }
  }
  for (const kind of Object.keys(components)) {
    components[kind] = Object.fromEntries(Object.entries(components[kind]).sort(([a], [b]) => a.localeCompare(b)));
  }
  return {
    openapi: full.openapi,
    ...("info" in full ? { info: (full as { info: unknown }).info } : {}),
    servers: full.servers,
    "x-pinned": pinned,
    paths,
    components,
  } as OpenApiDocument;
}
