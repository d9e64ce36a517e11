/**
 * Every provider fake on one port, for trying the connectors by hand and for the browser tests:
 * `npm run dev:fakes` (port FAKES_PORT, default 4790) prints the variables that point a server at
 * the fakes; `npm run --silent dev:fakes > .env.fakes &`, then start the server with them:
 * `set -a; . ./.env.fakes; set +a; npm run dev`.
 *
 * The Stripe fake's checkout sends its signed webhooks to the server those settings start: the same
 * `.env` is read as the server reads it, and the server's `appUrl` (APP_URL, else http://localhost:PORT)
 * names its `/api/payment/webhook`; `STRIPE_FAKE_WEBHOOK_URL` overrides it ("off": none). Where they go
 * is said on stderr, so stdout stays the variables file.
 */
import { loadConfig } from "../../src/infra/config";
import { loadEnvFile } from "../../src/infra/env-file";
import { allFakes } from "./all";
import { startFakes } from "./app";
import { fakeWebhookUrl } from "./stripe";

const settings = { ...process.env };
loadEnvFile(settings);
let appUrl: string;
try {
  appUrl = loadConfig(settings).appUrl;
} catch {
  // Settings the server itself would refuse: its own default address.
  appUrl = `http://localhost:${settings.PORT || 3000}`;
}
const webhookUrl = fakeWebhookUrl(settings, appUrl);
const running = await startFakes(allFakes({ stripe: { webhookUrl } }), Number(process.env.FAKES_PORT ?? 4790));
for (const [name, value] of Object.entries(running.env)) console.log(`${name}=${value}`);
console.error(
  webhookUrl
    ? `Stripe fake: webhooks go to ${webhookUrl} (set STRIPE_FAKE_WEBHOOK_URL to change it)`
    : "Stripe fake: webhooks are not sent (STRIPE_FAKE_WEBHOOK_URL=off)",
);
const stop = () => void running.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
