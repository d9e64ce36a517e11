/**
 * Every provider fake on one port, for trying the connectors by hand and for the browser tests:
 * `npm run dev:fakes` (port FAKES_PORT, default 4790) prints the variables that point a server at
 * the fakes; `npm run --silent dev:fakes > .env.fakes &`, then start the server with them:
 * `set -a; . ./.env.fakes; set +a; npm run dev`.
 */
import { allFakes } from "./all";
import { startFakes } from "./app";

const running = await startFakes(allFakes(), Number(process.env.FAKES_PORT ?? 4790));
for (const [name, value] of Object.entries(running.env)) console.log(`${name}=${value}`);
const stop = () => void running.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
