import { type TSource, ZSourceCreate, ZSourceUpdate } from "@app/core";
import { type Connector, type ConnectorRuntime, connectorByKey } from "../../connectors";
import type { SourcesTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import { type FormInput, parseInput } from "../../infra/http";
import { newId, nowIso, seal } from "../../infra/security";
import { sourceChanged } from "../audit/events";
import { auditLog } from "../audit/record";
import type { Actor } from "../users/service";
import { credentialFields, sourceCredentials, unsealCredentials } from "./credentials";
import type { SourceDeps } from "./deps";
import { presentSource, storedProperties } from "./presenter";
import { sourcesRepo } from "./repo";
import { checkUpload, MAX_SOURCE_FILES, storeUpload } from "./uploads";

/** The OAuth adapter of a connector's provider family (revoke on delete), or null for other connectors. */
function oauthFor(connector: Connector, runtime: ConnectorRuntime) {
  return connector.oauth ? connector.oauth(runtime.providers, runtime.counters) : null;
}

/**
 * When a source's login ends for good (ISO), read by its provider's OAuth adapter from the credentials to
 * store; null when they do not expire or refresh themselves (docs/product.md, expiring logins).
 */
function expiryOf(connector: Connector, runtime: ConnectorRuntime, credentials: Record<string, string> | null) {
  const at = credentials ? oauthFor(connector, runtime)?.grantExpiresAt?.(credentials) : null;
  return typeof at === "number" ? new Date(at).toISOString() : null;
}

/**
 * Gives a deleted source's grant back to the provider; a provider that cannot be reached does not keep the
 * source alive (the user asked to delete it), it is logged.
 */
async function revokeGrant(
  ctx: SourceDeps["ctx"],
  runtime: ConnectorRuntime,
  connector: Connector,
  row: SourcesTable,
  sealed: string,
): Promise<void> {
  try {
    await oauthFor(connector, runtime)?.revoke?.(unsealCredentials(ctx.config.appKey, sealed));
  } catch (error) {
    ctx.logger.warn({ err: error, sourceId: row.id }, "could not revoke the provider grant of a deleted source");
  }
}

/** A new source holding an OAuth grant (sealed), with no properties chosen yet. */
function oauthSourceRow(
  companyId: string,
  connector: Connector,
  account: string | null,
  sealed: string,
  expiresAt: string | null,
): SourcesTable {
  return {
    id: newId(),
    company_id: companyId,
    name: connector.key,
    account,
    credentials: sealed,
    properties: JSON.stringify([]),
    invalid: 0,
    created_at: nowIso(),
    credentials_expire_at: expiresAt,
  };
}

/** A company's sources on the sources page: list, connect (typed credentials, a file, OAuth), update, delete. */
export function connectionUseCases({ ctx, repo, files, runtime, changes, loadRow, connectorOf }: SourceDeps) {
  const credentials = sourceCredentials(ctx, runtime);
  const audit = auditLog(ctx);
  const { changed, announce } = changes;

  const useCases = {
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
      credentials.check(connector, input);
      const { account, stored } = await credentials.verify(connector, input);
      const upload = connector.upload ? checkUpload(connector, form.files.file) : null;
      // The uploaded file's row and the source that owns it: both or neither.
      const row = await ctx.db.transaction().execute(async (trx) => {
        const properties = upload
          ? [await storeUpload(files, actor.companyId, connector, upload, trx)]
          : (connector.initialProperties?.() ?? []);
        const row: SourcesTable = {
          id: newId(),
          company_id: actor.companyId,
          name: connector.key,
          account,
          credentials: credentials.seal(input, stored),
          properties: JSON.stringify(properties),
          invalid: 0,
          created_at: nowIso(),
          credentials_expire_at: expiryOf(connector, runtime, stored),
        };
        await sourcesRepo(trx).insert(row);
        await audit.record(trx, sourceChanged("source.connected", row, connector.displayName));
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
        const patch = {
          credentials: sealed,
          account: grant.account ?? row.account,
          invalid: 0,
          credentials_expire_at: expiryOf(connector, runtime, grant.credentials),
          expiry_warned_for: null,
        };
        const event = sourceChanged("source.reauthorised", { ...row, ...patch }, connector.displayName);
        await audit.within(ctx.db, event, (trx) => sourcesRepo(trx).update(actor.companyId, existingId, patch));
        await changed(actor.companyId, existingId);
        await announce(actor.companyId, existingId);
        return presentSource(await loadRow(actor.companyId, existingId));
      }
      const row = oauthSourceRow(
        actor.companyId,
        connector,
        grant.account,
        sealed,
        expiryOf(connector, runtime, grant.credentials),
      );
      const event = sourceChanged("source.connected", row, connector.displayName);
      await audit.within(ctx.db, event, (trx) => sourcesRepo(trx).insert(row));
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
        credentials.check(connector, input);
        const { account, stored } = await credentials.verify(connector, input);
        patch.account = account ?? row.account;
        patch.credentials = credentials.seal(input, stored);
        patch.credentials_expire_at = expiryOf(connector, runtime, stored);
        patch.expiry_warned_for = null;
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
            await storeUpload(files, actor.companyId, connector, upload, trx),
          ]);
        await sourcesRepo(trx).update(actor.companyId, id, patch);
        if (patch.credentials !== undefined)
          await audit.record(trx, sourceChanged("source.reauthorised", { ...row, ...patch }, connector.displayName));
      });
      await changed(actor.companyId, id);
      await announce(actor.companyId, id);
      return presentSource(await loadRow(actor.companyId, id));
    },

    /** DELETE /api/sources/{id}: the source and the files it owns. */
    async remove(actor: Actor, id: string): Promise<void> {
      const row = await loadRow(actor.companyId, id);
      const connector = connectorByKey(row.name);
      if (connector?.oauth && row.credentials) await revokeGrant(ctx, runtime, connector, row, row.credentials);
      if (connectorByKey(row.name)?.upload) {
        for (const property of storedProperties(row)) await files.remove(actor.companyId, property.value);
      }
      const event = sourceChanged("source.removed", row, connector?.displayName ?? row.name);
      await audit.within(ctx.db, event, async (trx) => {
        await sourcesRepo(trx).deleteResults(actor.companyId, id);
        await sourcesRepo(trx).delete(actor.companyId, id);
      });
      await changed(actor.companyId, id);
      await announce(actor.companyId, id);
    },

    /** The company's Demo source, created on first use (templates reference Demo widget types). */
    async ensureDemoSource(companyId: string): Promise<TSource> {
      const existing = await repo.findFirstByName(companyId, "demo");
      if (existing) return presentSource(existing);
      return useCases.create({ id: "system", companyId, roleName: "admin" }, { fields: { name: "demo" }, files: {} });
    },
  };
  return useCases;
}
