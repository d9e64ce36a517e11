/**
 * How Debian's Chromium runs here: as root it needs --no-sandbox, and with
 * the network closed the background services must be off or every start waits on refused connections.
 * Shared by the browser tests and the render benchmark.
 */
export const CHROMIUM_LAUNCH_OPTIONS = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};
