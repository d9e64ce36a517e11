import { ROUTE_LINES, routePath, splitRouteLine, type TConnector, type TSource } from "@app/core";
import { ApiError, apiHeaders, call } from "../../lib/api";

export async function fetchConnectors(): Promise<TConnector[]> {
  return (await call("connectors")).data;
}

/**
 * GET /api/configs/connectors/:key/logo.svg: the connector's mark as SVG markup (the connector's folder
 * on the server draws it). Not `call`: the answer is an SVG document, not JSON.
 */
export async function fetchConnectorLogo(key: string): Promise<string> {
  const path = routePath(splitRouteLine(ROUTE_LINES.connectorLogo).path, { key });
  const response = await fetch(path, { headers: apiHeaders(), credentials: "same-origin" });
  if (!response.ok) throw new ApiError(response.status, null);
  return response.text();
}

export async function fetchSources(): Promise<TSource[]> {
  return (await call("sourcesList")).data;
}

/** Connects a source that needs no upload, e.g. Demo data: POST /api/sources {name}. */
export async function connectSource(name: string): Promise<TSource> {
  return (await call("sourceCreate", { body: { name } })).data;
}

/** A login typed into the sources form: account + token, token, or site + key|secret (docs/product.md §3). */
export interface TypedCredentials {
  account?: string;
  token?: string;
  site?: string;
}

/** Creates a credentials source: the server checks the login with the provider before storing it. */
export async function createCredentialsSource(name: string, credentials: TypedCredentials): Promise<TSource> {
  return (await call("sourceCreate", { body: { name, ...credentials } })).data;
}

/** Re-authorises a credentials source with a new login (checked with the provider the same way). */
export async function updateCredentials(id: string, credentials: TypedCredentials): Promise<TSource> {
  return (await call("sourceUpdate", { params: { id }, body: credentials })).data;
}

/** Creates an upload source (name=csv) from its first file, sent as multipart. */
export async function createUploadSource(name: string, file: File): Promise<TSource> {
  const form = new FormData();
  form.append("name", name);
  form.append("file", file);
  return (await call("sourceCreate", { form })).data;
}

/** Adds a file to an existing upload source: PUT /api/sources/{id} multipart with `file`. */
export async function addSourceFile(id: string, file: File): Promise<TSource> {
  const form = new FormData();
  form.append("file", file);
  return (await call("sourceUpdate", { params: { id }, form })).data;
}

/** Re-authorises a source that needs no credentials (clears its invalid flag). */
export async function reconnectSource(id: string): Promise<TSource> {
  return (await call("sourceUpdate", { params: { id }, body: {} })).data;
}

/** docs/product.md §7: a 404 means the source is already gone, which is what the user wanted. */
export async function deleteSource(id: string): Promise<void> {
  try {
    await call("sourceDelete", { params: { id } });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return;
    throw error;
  }
}

/**
 * The provider's consent screen for a new OAuth source, or to re-authorise `sourceId`. `account` is the
 * account typed before the consent screen, for connectors that ask for one (`oauthAccount`).
 */
export async function startOAuth(
  connector: string,
  sourceId: string | null,
  account: string | null = null,
): Promise<string> {
  const body = { ...(sourceId ? { source_id: sourceId } : {}), ...(account !== null ? { account } : {}) };
  return (await call("oauthStart", { params: { connector }, body })).data.url;
}
