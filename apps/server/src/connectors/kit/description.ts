/**
 * A provider's own machine-readable description of its API (a Google discovery document, an OpenAPI
 * document, an SDK's field lists), pinned in the connector's folder with its source address and the date
 * it was taken. The connector's tests check both directions against it (every request the connector can
 * build is valid; every answer its fake gives matches), and `npm run connectors:check` validates live
 * answers with it. Loaded on demand: the documents are large and the server never needs them to serve.
 */
export interface ApiDescription {
  /** Where the pinned copy came from and when it was taken (YYYY-MM-DD). */
  source: { url: string; retrieved: string };
  /**
   * Whether the description speaks of this request at all (a provider's OAuth token endpoint is usually
   * described elsewhere): the live check validates only what it covers. Absent: every request.
   */
  covers?(request: DescribedRequest): boolean;
  /** Problems with a request the connector would send ([] when it is valid): unknown path, field, parameter. */
  checkRequest(request: DescribedRequest): string[];
  /** Problems with an answer to that request ([] when it matches the described response). */
  checkResponse(request: DescribedRequest, status: number, body: unknown): string[];
}

export interface DescribedRequest {
  method: string;
  url: URL;
  /** The parsed JSON body, or the form fields, when the request has one. */
  body?: unknown;
}

/** A connector's description, imported when first asked for. */
export type ApiDescriptionLoader = () => Promise<ApiDescription>;
