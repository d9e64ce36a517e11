import { type Connector, type ConnectorRuntime, connectorByKey } from "../../connectors";
import type { AppContext } from "../../context";
import type { Db } from "../../infra/db";
import type { SourcesTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import type { FilesService } from "../files/service";
import { sourceChanges } from "./changes";
import { connectionUseCases } from "./connections";
import { connectorCallUseCases, SourceFailure } from "./connector-calls";
import type { SourceDeps } from "./deps";
import { loginExpiry } from "./expiry";
import { sourcesRepo } from "./repo";
import { storedResultUseCases } from "./stored-results";

export { type LoadedSource, SourceFailure } from "./connector-calls";
export { MAX_SOURCE_FILES } from "./uploads";

/** Banner 125 check (docs/product.md §4): true while any of the company's sources is invalid. */
export async function hasInvalidSource(db: Db, companyId: string): Promise<boolean> {
  return (await sourcesRepo(db).firstInvalid(companyId)) !== undefined;
}

/**
 * The sources service: one object for routes and other features, assembled from its use cases, each in its
 * own module of this folder — connections.ts (the sources page: connect, update, delete), connector-calls.ts
 * (open a source and run a connector call: what a failure means), stored-results.ts (a query through the
 * stored results) and changes.ts (who learns of a change).
 */
export function sourcesService(
  ctx: AppContext,
  files: FilesService,
  companyName: (companyId: string) => Promise<string> = async () => "",
) {
  const repo = sourcesRepo(ctx.db);
  const runtime: ConnectorRuntime = {
    providers: ctx.config.providers,
    counters: ctx.rateLimits,
    outboundAllowHosts: ctx.config.outboundAllowHosts,
    logger: ctx.logger,
  };
  const changes = sourceChanges(ctx, repo);
  const deps: SourceDeps = {
    ctx,
    repo,
    files,
    runtime,
    changes,
    async loadRow(companyId: string, id: string): Promise<SourcesTable> {
      const row = await repo.find(companyId, id);
      if (!row) throw AppError.notFound("Source not found.");
      return row;
    },
    connectorOf(row: SourcesTable): Connector {
      const connector = connectorByKey(row.name);
      // A row whose connector was removed from the catalogue cannot be queried; say so as a source failure.
      if (!connector) throw new SourceFailure(row.id);
      return connector;
    },
  };
  const calls = connectorCallUseCases(deps);
  return {
    onChange: changes.onChange,
    ...connectionUseCases(deps),
    ...calls,
    ...storedResultUseCases(deps, calls),

    /** Banner 125 for the page data: `(companyId) => Promise<boolean>`, usable unbound. */
    hasInvalidSource: (companyId: string): Promise<boolean> => hasInvalidSource(ctx.db, companyId),
    /** Logins that end for good: banner 130, the admins' e-mail a week before (expiry.ts). */
    loginExpiry: loginExpiry(ctx, runtime, companyName),
  };
}

export type SourcesService = ReturnType<typeof sourcesService>;
