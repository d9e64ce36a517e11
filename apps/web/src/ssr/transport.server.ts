import { AsyncLocalStorage } from "node:async_hooks";
import type { ServerRenderAnswerer } from "@app/core";

/**
 * The API client's transport in the server-rendering build (it replaces lib/transport.ts there): each
 * render runs with the server's own answerer for its request (`withTransport`), so the web's queries
 * (the dashboard, each widget's data) reach the API routes in process, with the viewer's headers, and
 * get exactly the JSON the browser would get. Per render, not per process: renders run concurrently.
 */
const current = new AsyncLocalStorage<ServerRenderAnswerer>();

export function withTransport<T>(answerer: ServerRenderAnswerer, run: () => Promise<T>): Promise<T> {
  return current.run(answerer, run);
}

/** lib/transport.ts's signature (this module replaces it), answered by the render's answerer. */
export const transport = (input: string, init: RequestInit): Promise<Response> => {
  const answerer = current.getStore();
  if (!answerer) return Promise.reject(new Error(`No server transport for ${input}.`));
  return answerer(input, init);
};
