import { CHROMIUM_ARGS } from "../apps/server/src/infra/browser";

/**
 * How Debian's Chromium runs here (the same flags the product's browser pool uses: as root it needs
 * --no-sandbox, and with the network closed the background services must be off or every start waits
 * on refused connections). Shared by the browser tests and the render benchmark.
 */
export const CHROMIUM_LAUNCH_OPTIONS = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  headless: true,
  args: CHROMIUM_ARGS,
};
