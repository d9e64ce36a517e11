import fs from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { CouponDefinitionError, couponCatalogue } from "../features/coupons/catalogue";
import { type Db, migrateToLatest, openDatabase } from "../infra/db";
import type { CouponsTable } from "../infra/db/schema";
import { type CliOutput, isEntryPoint, runOperatorCommand } from "./cli";

const USAGE = `Coupons (docs/operations.md "Coupons"):
  npm run coupons -- add CODE TYPE VALUE [--name "Spring promo"] [--max N] [--expires YYYY-MM-DD]
  npm run coupons -- list
  npm run coupons -- import coupons.json
TYPE is price.discount (VALUE = percent off), price.fixed (VALUE = cents off each dashboard),
dashboards.bonus (VALUE = extra dashboards) or ltd.appsumo (VALUE = dashboards owned for life).`;

function describe(row: CouponsTable): string {
  const uses =
    row.max_redemptions === null ? `${row.redemptions} used` : `${row.redemptions} of ${row.max_redemptions} used`;
  const expires = row.expires_at ? `expires ${row.expires_at.slice(0, 10)}` : "no expiry";
  return `${row.code}\t${row.type}\t${row.value}\t${row.name}\t${uses}\t${expires}`;
}

/** Runs one command on `db`; returns the exit code (0 done, 1 refused, 2 wrong usage). */
export async function runCouponsCli(args: string[], db: Db, io: CliOutput, cwd = process.cwd()): Promise<number> {
  const parse = () =>
    parseArgs({
      args,
      allowPositionals: true,
      options: { name: { type: "string" }, max: { type: "string" }, expires: { type: "string" } },
    });
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (error) {
    io.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  const catalogue = couponCatalogue(db);
  try {
    if (command === "add" && rest.length === 3) {
      const [code, type, value] = rest;
      const { name, max, expires } = parsed.values;
      const row = await catalogue.add({ code, type, value, name, max, expires });
      io.out(`Added ${describe(row)}`);
      return 0;
    }
    if (command === "list" && rest.length === 0) {
      const rows = await catalogue.list();
      if (rows.length === 0) io.out("No coupons yet.");
      for (const row of rows) io.out(describe(row));
      return 0;
    }
    if (command === "import" && rest.length === 1) {
      const file = path.resolve(cwd, rest[0]);
      let text: string;
      try {
        text = await fs.readFile(file, "utf8");
      } catch {
        io.error(`Cannot read ${file}.`);
        return 1;
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        io.error(`${file} is not valid JSON.`);
        return 1;
      }
      const { added, updated } = await catalogue.importAll(json);
      io.out(`Added ${added.length} coupon(s)${added.length ? `: ${added.join(", ")}` : ""}.`);
      io.out(`Updated ${updated.length} coupon(s)${updated.length ? `: ${updated.join(", ")}` : ""}.`);
      return 0;
    }
  } catch (error) {
    if (!(error instanceof CouponDefinitionError)) throw error;
    io.error(error.message);
    return 1;
  }
  io.error(USAGE);
  return 2;
}

/** `npm run coupons -- …`: the app's own settings (.env, DATABASE_URL or DATA_DIR), migrated first. */
async function main() {
  await runOperatorCommand(async (config, io, args) => {
    const handle = openDatabase({
      databaseUrl: config.databaseUrl,
      sqlitePath: path.join(config.dataDir, "reportz.sqlite"),
    });
    try {
      await migrateToLatest(handle.db);
      // npm runs scripts from the package's folder; a file name is meant from where the operator typed it.
      return await runCouponsCli(args, handle.db, io, process.env.INIT_CWD ?? process.cwd());
    } finally {
      await handle.close();
    }
  });
}

if (isEntryPoint(import.meta.url)) await main();
