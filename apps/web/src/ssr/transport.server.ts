import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The API client's transport in the server-rendering build (it replaces lib/transport.ts there): each
 * render runs with the server's own answerer for its request (`withTransport`), so the web's queries
 * (the dashboard, each widget's data) reach the API routes in process, with the viewer's headers, and
 * get exactly the JSON the browser would get. Per render, not per process: renders run concurrently.
 */
export type Answerer = (input: string, init: RequestInit) => Promise<Response>;

const current = new AsyncLocalStorage<Answerer>();

export function withTransport<T>(answerer: Answerer, run: () => Promise<T>): Promise<T> {
  return current.run(answerer, run);
}

export const transport: Answerer = (input, init) => {
  const answerer = current.getStore();
  if (!answerer) return Promise.reject(new Error(`No server transport for ${input}.`));
  return answerer(input, init);
};
