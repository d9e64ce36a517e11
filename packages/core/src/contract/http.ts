/** Header names of docs/product.md §7 / §8. */
export const HEADERS = {
  requestedWith: "x-requested-with",
  identification: "x-identification",
  authorization: "x-authorization",
  public: "x-public",
  /** The realtime socket of the page making the call: the server leaves it out of the broadcast it causes. */
  socketId: "x-socket-id",
  /** An embedded view's signed embed token: it stands for the dashboard password (docs/decisions.md). */
  embedToken: "x-embed-token",
} as const;

/** Statuses that make the client reload the page (docs/product.md §8). */
export const RELOAD_STATUSES: readonly number[] = [588, 401, 419];
