/**
 * How the API client reaches the server: the browser's fetch. The server-rendering build swaps this
 * module for ssr/transport.server.ts (vite.config.ts), which answers the same calls inside the server.
 */
export const transport = (input: string, init: RequestInit): Promise<Response> => fetch(input, init);
