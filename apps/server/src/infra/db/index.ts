import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, type Migration, type MigrationProvider, Migrator, PostgresDialect, SqliteDialect, sql } from "kysely";
import { LRUCache } from "lru-cache";
import pg from "pg";
import * as m001 from "./migrations/001_accounts";
import * as m002 from "./migrations/002_dashboards";
import * as m003 from "./migrations/003_jobs";
import * as m004 from "./migrations/004_ops_probe";
import * as m005 from "./migrations/005_dashboard_embed_secret";
import * as m006 from "./migrations/006_automatic_reports";
import * as m007 from "./migrations/007_pdf_exports";
import * as m008 from "./migrations/008_report_deliveries";
import * as m009 from "./migrations/009_company_senders";
import * as m010 from "./migrations/010_provider_results";
import * as m011 from "./migrations/011_campaigns";
import * as m012 from "./migrations/012_campaign_alerts";
import * as m013 from "./migrations/013_widget_alerts";
import * as m014 from "./migrations/014_domain_metric_coverage";
import * as m015 from "./migrations/015_company_domains";
import * as m016 from "./migrations/016_billing";
import * as m017 from "./migrations/017_coupons";
import * as m018 from "./migrations/018_user_identities";
import * as m019 from "./migrations/019_custom_domain_claims";
import * as m021 from "./migrations/021_company_billing_details";
import * as m022 from "./migrations/022_onboarding_source";
import * as m023 from "./migrations/023_order_lines";
import * as m024 from "./migrations/024_company_timezone";
import * as m025 from "./migrations/025_invoice_billing_details";
import * as m026 from "./migrations/026_order_invoice_parties";
import * as m027 from "./migrations/027_source_credentials_expiry";
import * as m028 from "./migrations/028_two_factor";
import * as m029 from "./migrations/029_passkeys";
import * as m030 from "./migrations/030_session_details";
import * as m031 from "./migrations/031_audit_events";
import * as m032 from "./migrations/032_dashboard_language";
import type { Database } from "./schema";

export type Db = Kysely<Database>;
export type Dialect = "sqlite" | "postgres";

export interface DbHandle {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
}

/** Migrations are listed here (not read from disk) so bundling and tsx behave the same. */
const MIGRATIONS: Record<string, Migration> = {
  "001_accounts": m001,
  "002_dashboards": m002,
  "003_jobs": m003,
  "004_ops_probe": m004,
  "005_dashboard_embed_secret": m005,
  "006_automatic_reports": m006,
  "007_pdf_exports": m007,
  "008_report_deliveries": m008,
  "009_company_senders": m009,
  "010_provider_results": m010,
  "011_campaigns": m011,
  "012_campaign_alerts": m012,
  "013_widget_alerts": m013,
  "014_domain_metric_coverage": m014,
  "015_company_domains": m015,
  "016_billing": m016,
  "017_coupons": m017,
  "018_user_identities": m018,
  "019_custom_domain_claims": m019,
  "021_company_billing_details": m021,
  "022_onboarding_source": m022,
  "023_order_lines": m023,
  "024_company_timezone": m024,
  "025_invoice_billing_details": m025,
  "026_order_invoice_parties": m026,
  "027_source_credentials_expiry": m027,
  "028_two_factor": m028,
  "029_passkeys": m029,
  "030_session_details": m030,
  "031_audit_events": m031,
  "032_dashboard_language": m032,
};

/** Every migration, in order (tests compare what was applied against it). */
export const MIGRATION_NAMES = Object.keys(MIGRATIONS).sort();

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

// PostgreSQL returns BIGINT counts as strings; our counts always fit in a JS number.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

/** Opens PostgreSQL when a postgres:// URL is given, otherwise a SQLite file in WAL mode. */
export function openDatabase(options: {
  databaseUrl: string | null;
  sqlitePath: string;
  /** An idle pooled connection that broke (PostgreSQL restarted, an administrator ended it). */
  onIdleError?: (error: Error) => void;
}): DbHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // Without a listener, pg's pool raises an idle connection's error as an uncaught 'error' event and
    // the process dies; the pool drops that connection and opens a new one on the next query anyway.
    pool.on("error", (error) => options.onIdleError?.(error));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: "postgres", close: () => db.destroy() };
  }
  fs.mkdirSync(path.dirname(options.sqlitePath), { recursive: true });
  const sqlite = new SQLite(options.sqlitePath);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  // Kysely prepares every query anew; SQLite compiling the same SQL text again was a good part of a
  // simple query's cost. Statements are reusable (Kysely runs one at a time on this connection).
  const statements = new LRUCache<string, SQLite.Statement>({ max: 500 });
  const database = {
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (!statement) {
        statement = sqlite.prepare(text);
        statements.set(text, statement);
      }
      return statement;
    },
  };
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  return { db, dialect: "sqlite", close: () => db.destroy() };
}

/** Brings the schema up to date; fails loudly so a broken migration never serves traffic. */
export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ""} failed: ${String(error)}`);
  }
}

/** True when the database answers a trivial query (health check). */
export async function pingDatabase(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
