import { createHash } from "node:crypto";
import {
  connectorNameInText,
  REALTIME_EVENTS,
  sourceCredentialErrors,
  type TOption,
  type TSource,
  type TSourceCredentials,
  type TSourceOptionQuery,
  type TTable,
  ZSourceCreate,
  ZSourceUpdate,
} from "@app/core";
import { z } from "zod";
import {
  type Connector,
  ConnectorError,
  type ConnectorRuntime,
  connectorByKey,
  ProviderError,
  type QueryRequest,
  type SourceHandle,
} from "../../connectors";
import type { AppContext } from "../../context";
import { broadcastToCompany } from "../../infra/broadcast";
import type { Db } from "../../infra/db";
import type { SourcesTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import { type FormInput, parseInput } from "../../infra/http";
import { newId, nowIso, seal, unseal } from "../../infra/security";
import type { FilesService } from "../files/service";
import type { Actor } from "../users/service";
import { storedResultFresh } from "./freshness";
import { presentSource, storedProperties } from "./presenter";
import { sourcesRepo } from "./repo";

const ZStoredCredentials = z.record(z.string(), z.string());

/** Most files one upload source holds; each is a property the widget form lists. */
export const MAX_SOURCE_FILES = 50;

/** A connector call failed for reasons other than the form: the source is now invalid and the widget shows 'Data Error'. */
/** A source that could not answer, already marked invalid: answered 502 source_error ('Data Error'). */
export class SourceFailure extends AppError {
  constructor(readonly sourceId: string) {
    super("source_error");
  }
}

/** Banner 125 check (docs/product.md §4): true while any of the company's sources is invalid. */
export async function hasInvalidSource(db: Db, companyId: string): Promise<boolean> {
  return (await sourcesRepo(db).firstInvalid(companyId)) !== undefined;
}

/** A source loaded for a connector call: its row, its connector and what the connector may see of it. */
export interface LoadedSource {
  row: SourcesTable;
  connector: Connector;
  handle: SourceHandle;
}

type SourceListener = (sourceId: string, version: string) => Promise<void>;

function credentialFields(input: TSourceCredentials): Record<string, string> {
  return Object.fromEntries(
    Object.entries(input).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}

/** The OAuth adapter of a connector's provider family (revoke on delete), or null for other connectors. */
function oauthFor(connector: Connector, runtime: ConnectorRuntime) {
  return connector.oauth ? connector.oauth(runtime.providers, runtime.counters) : null;
}

export function sourcesService(ctx: AppContext, files: FilesService) {
  const repo = sourcesRepo(ctx.db);
  const runtime: ConnectorRuntime = {
    providers: ctx.config.providers,
    counters: ctx.rateLimits,
    outboundAllowHosts: ctx.config.outboundAllowHosts,
    logger: ctx.logger,
  };
  const listeners: SourceListener[] = [];

  // A change is every process's business (their caches hold this source's tables): listeners here
  // run at once, before the answer, and the bus tells every process, this one again (the same version
  // twice changes nothing).
  ctx.events.subscribe("source.changed", async ({ sourceId, version }) => {
    const token = version ?? newId();
    for (const listener of listeners) await listener(sourceId, token);
  });
  async function changed(companyId: string, sourceId: string) {
    const version = newId();
    for (const listener of listeners) await listener(sourceId, version);
    await ctx.events.publish("source.changed", { companyId, sourceId, version });
  }

  /** docs/product.md §4 CompanySourceUpdated: members' browsers update their sources and refresh that source's widgets. */
  async function announce(companyId: string, sourceId: string) {
    const sources = (await repo.listByCompany(companyId)).map(presentSource);
    await broadcastToCompany(ctx, companyId, REALTIME_EVENTS.sourceUpdated, { sources, id: sourceId });
  }

  async function loadRow(companyId: string, id: string): Promise<SourcesTable> {
    const row = await repo.find(companyId, id);
    if (!row) throw AppError.notFound("Source not found.");
    return row;
  }

  function connectorOf(row: SourcesTable): Connector {
    const connector = connectorByKey(row.name);
    // A row whose connector was removed from the catalogue cannot be queried; say so as a source failure.
    if (!connector) throw new SourceFailure(row.id);
    return connector;
  }

  /** Checks and stores an upload connector's file; the property the new file becomes. */
  /** Checks an upload with its connector (before any transaction: parsing is the slow part). */
  function checkUpload(connector: Connector, file: FormInput["files"][string] | undefined) {
    if (!connector.upload) throw AppError.validation({ file: ["This source does not take files."] });
    if (!file) throw AppError.validation({ file: ["The file field is required."] });
    connector.upload.check(file);
    return { file, extension: connector.upload.extension };
  }

  /** Stores a checked upload, its file row on `db` (the source's transaction). */
  async function storeUpload(
    companyId: string,
    connector: Connector,
    upload: ReturnType<typeof checkUpload>,
    db: Db,
  ): Promise<TOption> {
    const stored = await files.storeSourceFile(companyId, connector.key, upload.extension, upload.file, db);
    return { value: stored.id, label: stored.name };
  }

  function checkCredentials(connector: Connector, credentials: TSourceCredentials): void {
    const errors = sourceCredentialErrors(connector.authKind, credentials);
    const fields = Object.fromEntries(Object.entries(errors).map(([field, message]) => [field, [message]]));
    if (Object.keys(fields).length > 0) throw AppError.validation(fields);
  }

  /**
   * A typed login checked with the provider before it is stored (Connector.verify): refused → the
   * form's 422 on the field in the provider's words; not answering → a 422 saying so. Nothing is saved.
   */
  async function verifyCredentials(connector: Connector, input: TSourceCredentials): Promise<string | null> {
    if (!connector.verify) return input.account ?? null;
    try {
      const checked = await connector.verify({
        account: input.account ?? null,
        credentials: credentialFields({ token: input.token, site: input.site }),
        runtime,
      });
      return checked?.account ?? input.account ?? null;
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      ctx.logger.info({ connector: connector.key, kind: error.kind }, "credentials refused by the provider");
      const field =
        error.field ?? (connector.authKind === "site+key|secret" && error.kind === "input" ? "site" : "token");
      const name = connectorNameInText(connector.displayName);
      const words =
        error.kind === "auth" || error.kind === "input"
          ? `${name} refused these credentials: ${error.reason}`
          : `${name} did not answer (${error.reason}). Please try again in a moment.`;
      throw AppError.validation({ [field]: [words] });
    }
  }

  function sealCredentials(credentials: TSourceCredentials): string | null {
    const secret = credentialFields({ token: credentials.token, site: credentials.site });
    return Object.keys(secret).length > 0 ? seal(ctx.config.appKey, JSON.stringify(secret)) : null;
  }

  /** Banner 125 from now on; members' open pages learn it at once (CompanySourceUpdated, docs/product.md §4). */
  async function markInvalid(companyId: string, sourceId: string): Promise<void> {
    if (!(await repo.invalidate(companyId, sourceId))) return;
    // Cached tables go too: the next view reads the stored results, which say the source needs reconnecting.
    await changed(companyId, sourceId);
    await announce(companyId, sourceId);
  }

  const service = {
    /** Registers a callback run after a source's credentials or files change or it is deleted (cache invalidation). */
    onChange(listener: SourceListener): void {
      listeners.push(listener);
    },

    async list(actor: Actor): Promise<TSource[]> {
      return (await repo.listByCompany(actor.companyId)).map(presentSource);
    },

    /** POST /api/sources: a connector key plus credentials, or for upload connectors a file part. */
    async create(actor: Actor, form: FormInput): Promise<TSource> {
      // An absent name reads as empty so the 422 says 'The name field is required.' rather than a type error.
      const input = parseInput(ZSourceCreate, { name: "", ...form.fields });
      const connector = connectorByKey(input.name);
      if (!connector) throw AppError.validation({ name: ["The selected connector is invalid."] });
      if (!connector.available)
        throw AppError.validation({ name: [connector.note ?? "This connector cannot be connected yet."] });
      checkCredentials(connector, input);
      const account = await verifyCredentials(connector, input);
      const upload = connector.upload ? checkUpload(connector, form.files.file) : null;
      // The uploaded file's row and the source that owns it: both or neither.
      const row = await ctx.db.transaction().execute(async (trx) => {
        const properties = upload
          ? [await storeUpload(actor.companyId, connector, upload, trx)]
          : (connector.initialProperties?.() ?? []);
        const row: SourcesTable = {
          id: newId(),
          company_id: actor.companyId,
          name: connector.key,
          account,
          credentials: sealCredentials(input),
          properties: JSON.stringify(properties),
          invalid: 0,
          created_at: nowIso(),
        };
        await sourcesRepo(trx).insert(row);
        return row;
      });
      await announce(actor.companyId, row.id);
      return presentSource(row);
    },

    /**
     * The end of an OAuth connection (features/oauth): a new source with the grant, or, when the user
     * re-authorised an existing one, that source with its new grant and valid again (banner 125 gone).
     */
    async connectOAuth(
      actor: Actor,
      connector: Connector,
      grant: { credentials: Record<string, string>; account: string | null },
      existingId: string | null,
    ): Promise<TSource> {
      const sealed = seal(ctx.config.appKey, JSON.stringify(grant.credentials));
      if (existingId) {
        const row = await loadRow(actor.companyId, existingId);
        if (row.name !== connector.key)
          throw AppError.validation({ name: ["This source belongs to another connector."] });
        await repo.update(actor.companyId, existingId, {
          credentials: sealed,
          account: grant.account ?? row.account,
          invalid: 0,
        });
        await changed(actor.companyId, existingId);
        await announce(actor.companyId, existingId);
        return presentSource(await loadRow(actor.companyId, existingId));
      }
      const row: SourcesTable = {
        id: newId(),
        company_id: actor.companyId,
        name: connector.key,
        account: grant.account,
        credentials: sealed,
        properties: JSON.stringify([]),
        invalid: 0,
        created_at: nowIso(),
      };
      await repo.insert(row);
      await announce(actor.companyId, row.id);
      return presentSource(row);
    },

    /** PUT /api/sources/{id}: re-authorise (clears the invalid flag); upload sources may add a file. */
    async update(actor: Actor, id: string, form: FormInput): Promise<TSource> {
      const row = await loadRow(actor.companyId, id);
      const connector = connectorOf(row);
      const input = parseInput(ZSourceUpdate, form.fields);
      const patch: Partial<SourcesTable> = { invalid: 0 };
      if (Object.keys(credentialFields(input)).length > 0) {
        checkCredentials(connector, input);
        patch.account = (await verifyCredentials(connector, input)) ?? row.account;
        patch.credentials = sealCredentials(input);
      }
      const properties = storedProperties(row);
      const adding = connector.upload !== undefined && form.files.file !== undefined;
      if (adding && properties.length >= MAX_SOURCE_FILES) {
        throw AppError.validation({ file: [`A source holds at most ${MAX_SOURCE_FILES} files.`] });
      }
      const upload = adding ? checkUpload(connector, form.files.file) : null;
      // An added file's row and the source listing it: both or neither.
      await ctx.db.transaction().execute(async (trx) => {
        if (upload)
          patch.properties = JSON.stringify([
            ...properties,
            await storeUpload(actor.companyId, connector, upload, trx),
          ]);
        await sourcesRepo(trx).update(actor.companyId, id, patch);
      });
      await changed(actor.companyId, id);
      await announce(actor.companyId, id);
      return presentSource(await loadRow(actor.companyId, id));
    },

    /** DELETE /api/sources/{id}: the source and the files it owns. */
    async remove(actor: Actor, id: string): Promise<void> {
      const row = await loadRow(actor.companyId, id);
      const connector = connectorByKey(row.name);
      if (connector?.oauth && row.credentials) {
        // The grant is given back to the provider; a provider that cannot be reached does not keep the
        // source alive (the user asked to delete it), it is logged.
        try {
          const credentials = ZStoredCredentials.parse(JSON.parse(unseal(ctx.config.appKey, row.credentials)));
          await oauthFor(connector, runtime)?.revoke?.(credentials);
        } catch (error) {
          ctx.logger.warn({ err: error, sourceId: id }, "could not revoke the provider grant of a deleted source");
        }
      }
      if (connectorByKey(row.name)?.upload) {
        for (const property of storedProperties(row)) await files.remove(actor.companyId, property.value);
      }
      await repo.deleteResults(actor.companyId, id);
      await repo.delete(actor.companyId, id);
      await changed(actor.companyId, id);
      await announce(actor.companyId, id);
    },

    /** The source ready for a connector call; 404 unless it belongs to the company. */
    async load(companyId: string, id: string): Promise<LoadedSource> {
      const row = await loadRow(companyId, id);
      const connector = connectorOf(row);
      let credentials: Record<string, string> = {};
      if (row.credentials) {
        try {
          credentials = ZStoredCredentials.parse(JSON.parse(unseal(ctx.config.appKey, row.credentials)));
        } catch {
          // Credentials sealed under another APP_KEY cannot be opened: the source needs re-authorising.
          await markInvalid(companyId, id);
          throw new SourceFailure(id);
        }
      }
      const handle: SourceHandle = {
        id: row.id,
        companyId,
        connector: row.name,
        account: row.account,
        credentials,
        properties: storedProperties(row),
        readFile: (fileId) => files.read(companyId, fileId),
        saveCredentials: async (next) => {
          await repo.update(companyId, id, { credentials: seal(ctx.config.appKey, JSON.stringify(next)) });
          handle.credentials = next;
        },
        runtime,
      };
      return { row, connector, handle };
    },

    /**
     * Runs a connector call. Only a lost grant makes the source invalid (banner 125, the user must
     * re-authorise): a provider's `auth` failure, or a connector's own ConnectorError (a CSV file gone
     * from storage). A provider that is down, throttling or out of quota leaves the source valid (a 503
     * must never cost a customer a re-authorisation); its inputs being wrong is a 422 on the form.
     */
    async guard<T>(companyId: string, sourceId: string, call: () => Promise<T>): Promise<T> {
      try {
        return await call();
      } catch (error) {
        if (error instanceof SourceFailure || (error instanceof AppError && error.code !== "source_error")) throw error;
        if (error instanceof ProviderError && error.kind !== "auth") {
          ctx.logger.warn({ err: error, sourceId, kind: error.kind }, "provider failed; the source stays valid");
          if (error.kind === "input") {
            throw AppError.validation({
              [error.field ?? "general"]: [`The provider refused these settings: ${error.reason}`],
            });
          }
          throw error;
        }
        if (!(error instanceof ConnectorError)) {
          // Our own bug, not the source's: answered 'Data Error' without asking the user to re-authorise.
          ctx.logger.error({ err: error, sourceId }, "connector call failed unexpectedly");
          throw new AppError("source_error");
        }
        ctx.logger.warn({ err: error, sourceId }, "source query failed");
        await markInvalid(companyId, sourceId);
        throw new SourceFailure(sourceId);
      }
    },

    /**
     * One connector query through the stored results (docs/decisions.md, "Persistent results"): a stored
     * result fresh by its age is served without asking; otherwise the provider is asked and the answer
     * stored. When the provider fails for now (quota, throttling, an outage) the last stored result is
     * served with a notice instead of nothing. Connectors without a settling window (Demo, CSV) are
     * asked directly.
     */
    async query(
      companyId: string,
      source: LoadedSource,
      request: Omit<QueryRequest, "source">,
      live = false,
    ): Promise<{ table: TTable; notice: { asOf: string; message: string } | null }> {
      const ask = () =>
        service.guard(companyId, source.row.id, () => source.connector.query({ ...request, source: source.handle }));
      const settlingDays = source.connector.settlingDays;
      // Live data is of this minute: nothing to keep.
      if (settlingDays === undefined || live) return { table: await ask(), notice: null };
      // The inputs arrive normalised (declared keys, sorted), so equal queries give equal text.
      const queryKey = createHash("sha256")
        .update(
          JSON.stringify([
            request.type,
            request.inputs,
            request.range.startDate,
            request.range.endDate,
            request.timezone,
          ]),
        )
        .digest("hex");
      const stored = await repo.findResult(companyId, source.row.id, queryKey);
      // A source waiting to be re-authorised cannot be asked: its last numbers stand, saying so.
      const reconnect = () =>
        stored
          ? {
              table: JSON.parse(stored.table_json) as TTable,
              notice: { asOf: stored.fetched_at, message: `${source.connector.displayName} needs to be reconnected` },
            }
          : null;
      if (source.row.invalid) {
        const kept = reconnect();
        if (kept) return kept;
      }
      const now = ctx.clock.now().getTime();
      if (
        stored &&
        storedResultFresh(
          { rangeEnd: stored.range_end, fetchedAt: Date.parse(stored.fetched_at) },
          settlingDays,
          now,
          request.timezone,
        )
      ) {
        return { table: JSON.parse(stored.table_json) as TTable, notice: null };
      }
      try {
        const table = await ask();
        await repo.saveResult({
          source_id: source.row.id,
          query_key: queryKey,
          company_id: companyId,
          range_end: request.range.endDate,
          table_json: JSON.stringify(table),
          fetched_at: new Date(now).toISOString(),
        });
        return { table, notice: null };
      } catch (error) {
        if (stored && error instanceof ProviderError && ["quota", "rate", "server"].includes(error.kind)) {
          return {
            table: JSON.parse(stored.table_json) as TTable,
            notice: { asOf: stored.fetched_at, message: error.notice(source.connector.displayName) },
          };
        }
        // The grant was lost just now (the source is marked invalid, banner 125): the stored numbers stay on screen.
        const kept = error instanceof SourceFailure ? reconnect() : null;
        if (kept) return kept;
        throw error;
      }
    },

    /** GET /api/sources/{id}/{option}: a remote option list for the type form's current values. */
    async options(actor: Actor, id: string, kind: string, form: TSourceOptionQuery): Promise<TOption[]> {
      const { connector, handle } = await service.load(actor.companyId, id);
      return service.guard(actor.companyId, id, () => connector.options(kind, { source: handle, form }));
    },

    /** Banner 125 for the page data: `(companyId) => Promise<boolean>`, usable unbound. */
    hasInvalidSource: (companyId: string): Promise<boolean> => hasInvalidSource(ctx.db, companyId),

    /** The company's Demo source, created on first use (templates reference Demo widget types). */
    async ensureDemoSource(companyId: string): Promise<TSource> {
      const existing = await repo.findFirstByName(companyId, "demo");
      if (existing) return presentSource(existing);
      return service.create({ id: "system", companyId, roleName: "admin" }, { fields: { name: "demo" }, files: {} });
    },
  };
  return service;
}

export type SourcesService = ReturnType<typeof sourcesService>;
