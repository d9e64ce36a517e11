import net from "node:net";

/** A port nothing listens on right now (loopback), for servers a test starts. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address() as net.AddressInfo;
      server.close(() => resolve(address.port));
    });
  });
}

/**
 * Polls `check` until it holds; throws after `timeoutMs`. A check that throws counts as "not yet" (a
 * server still starting refuses connections). Returns how long it took.
 */
export async function until(
  check: () => Promise<boolean> | boolean,
  timeoutMs = 20_000,
  stepMs = 100,
): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (
      await Promise.resolve()
        .then(check)
        .catch(() => false)
    )
      return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`condition not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}
