import type { ConnectorRuntime } from "../types";

/**
 * One value per connector runtime (one per server process), made on first use. Provider clients are
 * kept this way so their per-key concurrency limit and "hold this key until the provider's wait is
 * over" map act across requests, not only within one (docs/decisions.md, "Connector HTTP layer").
 */
export function perRuntime<T>(make: (runtime: ConnectorRuntime) => T): (runtime: ConnectorRuntime) => T {
  const made = new WeakMap<ConnectorRuntime, T>();
  return (runtime) => {
    let value = made.get(runtime);
    if (value === undefined) {
      value = make(runtime);
      made.set(runtime, value);
    }
    return value;
  };
}
