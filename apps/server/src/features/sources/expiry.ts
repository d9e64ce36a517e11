import { connectorNameInText, type ExpiringSource, LOGIN_EXPIRY_WARNING_DAYS } from "@app/core";
import { z } from "zod";
import { CONNECTORS, type ConnectorRuntime, connectorByKey } from "../../connectors";
import type { AppContext } from "../../context";
import type { JobDefinition } from "../../infra/jobs";
import { userAccounts } from "../users/service";
import { unsealCredentials } from "./credentials";
import { expiryMail } from "./expiry-mail";
import { loginExpiryRepo } from "./repo";

export const LOGIN_EXPIRY_JOB = "sources.login-expiry";
/** Hourly: a week's warning is not hurt by an hour, and a reconnect is seen by the next pass. */
export const LOGIN_EXPIRY_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** How a source is named to admins: the connector, and the account when there is one. */
function sourceLabel(row: { name: string; account: string | null }): string {
  const connector = connectorByKey(row.name);
  const name = connector ? connectorNameInText(connector.displayName) : row.name;
  return row.account ? `${name} (${row.account})` : name;
}

/**
 * Logins that end for good (docs/product.md, "Expiring logins"): the admins' banner (130) and the hourly
 * pass that mails a company's admins once per source and expiry, LOGIN_EXPIRY_WARNING_DAYS before. Once
 * is kept in the source row (`expiry_warned_for`, claimed before sending and released when the mail
 * fails), so passes in several processes, a retried job or a restart never mail it twice; reconnecting
 * gives the source a new expiry, which is warned about in its turn.
 */
export function loginExpiry(
  ctx: AppContext,
  runtime: ConnectorRuntime,
  companyName: (companyId: string) => Promise<string>,
) {
  const users = userAccounts(ctx.db);
  const logins = loginExpiryRepo(ctx.db);
  const windowEnd = (now: Date) => new Date(now.getTime() + LOGIN_EXPIRY_WARNING_DAYS * DAY_MS).toISOString();

  /** Mails one company's admins about the sources claimed for it; false when nothing was sent. */
  async function mailCompany(companyId: string, claimed: ExpiringSource[]): Promise<boolean> {
    const admins = (await users.listByCompany(companyId)).filter((user) => user.role === "admin");
    if (admins.length === 0) return false;
    const mail = expiryMail({
      companyName: await companyName(companyId),
      sources: claimed,
      sourcesUrl: `${ctx.config.appUrl}/company/sources`,
    });
    await ctx.mailer.send({ to: admins.map((admin) => admin.email).join(", "), ...mail });
    return true;
  }

  /** One pass: every company's sources ending within the week and not warned about; answers the mails sent. */
  async function warnDue(): Promise<number> {
    const now = ctx.clock.now();
    const due = await logins.loginsToWarn(now.toISOString(), windowEnd(now));
    const byCompany = new Map<string, typeof due>();
    for (const row of due) byCompany.set(row.company_id, [...(byCompany.get(row.company_id) ?? []), row]);
    let sent = 0;
    for (const [companyId, rows] of byCompany) {
      const claimed: typeof rows = [];
      for (const row of rows) {
        const expiresAt = row.credentials_expire_at ?? "";
        if (await logins.claimExpiryWarning(companyId, row.id, expiresAt)) claimed.push(row);
      }
      if (claimed.length === 0) continue;
      try {
        const mailed = await mailCompany(
          companyId,
          claimed.map((row) => ({ label: sourceLabel(row), expiresAt: row.credentials_expire_at ?? "" })),
        );
        if (mailed) sent += 1;
        else {
          // Nobody to tell yet (a company without admins): free again, so an admin added later hears of it.
          for (const row of claimed)
            await logins.releaseExpiryWarning(companyId, row.id, row.credentials_expire_at ?? "");
        }
      } catch (error) {
        // Not sent: free again, so the next pass (or the job's retry) tries once more.
        for (const row of claimed)
          await logins.releaseExpiryWarning(companyId, row.id, row.credentials_expire_at ?? "");
        ctx.logger.warn({ err: error, companyId }, "the login expiry warning could not be mailed");
        throw error;
      }
    }
    return sent;
  }

  return {
    /** Banner 130: the company's sources to reconnect within the week (or already past their day). */
    async expiringSources(companyId: string): Promise<ExpiringSource[]> {
      const rows = await logins.loginsEndingBy(companyId, windowEnd(ctx.clock.now()));
      return rows.map((row) => ({ label: sourceLabel(row), expiresAt: row.credentials_expire_at ?? "" }));
    },

    /** One pass: every company's sources ending within the week and not warned about; answers the mails sent. */
    warnDue,

    /**
     * Sources connected before the expiry was kept next to them: it is read from their credentials once.
     * Those without expiry (a System User token) stay null and are read again at the next start only.
     */
    async copyMissingExpiries(): Promise<number> {
      const readers = new Map<string, (credentials: Record<string, string>) => number | null>();
      for (const connector of CONNECTORS) {
        const read = connector.oauth?.(runtime.providers, runtime.counters).grantExpiresAt;
        if (read) readers.set(connector.key, read);
      }
      let copied = 0;
      for (const row of await logins.withoutExpiry([...readers.keys()])) {
        try {
          const at = readers.get(row.name)?.(unsealCredentials(ctx.config.appKey, row.credentials ?? ""));
          if (typeof at !== "number") continue;
          if (await logins.copyExpiry(row.company_id, row.id, new Date(at).toISOString())) copied += 1;
        } catch (error) {
          // Sealed under another APP_KEY: the source fails on use anyway (banner 125); nothing to warn about.
          ctx.logger.warn({ err: error, sourceId: row.id }, "a source's login expiry could not be read");
        }
      }
      return copied;
    },

    job(): JobDefinition<Record<string, never>> {
      return {
        name: LOGIN_EXPIRY_JOB,
        payload: z.object({}) as unknown as z.ZodType<Record<string, never>>,
        schedule: { everyMs: LOGIN_EXPIRY_EVERY_MS },
        retry: { attempts: 3, backoffMs: 60_000 },
        handle: async () => {
          await warnDue();
        },
      };
    },
  };
}

export type LoginExpiry = ReturnType<typeof loginExpiry>;
