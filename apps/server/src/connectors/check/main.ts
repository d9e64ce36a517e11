import pino from "pino";
import { buildFeatureServices } from "../../features";
import { sourcesRepo } from "../../features/sources/repo";
import { createInfra } from "../../infra";
import { ConfigError, loadConfig } from "../../infra/config";
import { loadEnvFile } from "../../infra/env-file";
import { runConnectorsCheck } from "./cli";

/**
 * `npm run connectors:check -- …` (./cli.ts): reads the server's settings as the server does (the
 * environment, then `.env`), opens its database for `--source`, and prints the check's table.
 */
const settings = { ...process.env };
loadEnvFile(settings);
let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(settings);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : String(error));
  process.exit(2);
}
const logger = pino({ level: "silent" });
const infra = await createInfra(config, { logger, migrate: false });
const ctx = { ...infra, config };
const services = buildFeatureServices(ctx);
const code = await runConnectorsCheck(
  process.argv.slice(2),
  {
    providers: config.providers,
    counters: infra.rateLimits,
    outboundAllowHosts: config.outboundAllowHosts,
    env: settings,
    async loadSource(id) {
      const companyId = await sourcesRepo(infra.db).companyOfSource(id);
      if (!companyId) return null;
      const { connector, handle } = await services.get("sources").load(companyId, id);
      return { connector, handle };
    },
  },
  { out: (line) => console.log(line), error: (line) => console.error(line) },
);
await services.close();
await infra.close();
process.exit(code);
