import { generateKeyPairSync } from "node:crypto";
import { SENDER_MESSAGES, type TCompany, type TSenderUpdate } from "@app/core";
import type { AppContext } from "../../context";
import type { CompanySendersTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import type { MailDkim } from "../../infra/mail";
import { newId, nowIso, seal, unseal } from "../../infra/security";
import { companyChanged } from "../audit/events";
import { auditLog } from "../audit/record";
import type { CompaniesService } from "../companies/service";
import type { Actor } from "../users/service";
import { checkRecords, type RecordCheck } from "./dns-check";
import { senderRecords } from "./records";
import { senderRepo } from "./repo";

/** What the company payload says about the sender (docs/product.md §3 emailDns, fromAddress, verifiedWhitelabel). */
export interface SenderFacts {
  emailDns: TCompany["emailDns"];
  fromAddress: string | null;
  verifiedWhitelabel: boolean;
}

/** A new DKIM key: RSA 2048, the public half as DKIM's p= wants it (base64 DER), the private one as PEM. */
function newDkimKey() {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    publicBase64: publicKey.export({ type: "spki", format: "der" }).toString("base64"),
    privatePem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  };
}

/**
 * White-label sender (docs/product.md §3, §8, §9): the admin sets the company's address, the server makes
 * its DKIM key and the DNS records to add, "Verify" looks them up with real DNS queries, and once every
 * record is found mail goes out from that address, DKIM-signed with the company's key. Until then the
 * product's no-reply address sends, and the report form warns.
 */
export function senderService(ctx: AppContext, companies: () => CompaniesService) {
  const repo = senderRepo(ctx.db);
  const audit = auditLog(ctx);
  const records = (row: CompanySendersTable) =>
    senderRecords({ domain: row.domain, selector: row.selector, dkimPublic: row.dkim_public }, ctx.config.sender);

  function facts(row: CompanySendersTable | undefined): SenderFacts {
    if (!row) return { emailDns: [], fromAddress: null, verifiedWhitelabel: false };
    const checks = JSON.parse(row.checks) as RecordCheck[];
    return {
      emailDns: records(row).map((record) => {
        const check = checks.find((c) => c.kind === record.kind);
        return {
          type: record.type,
          host: record.host,
          value: record.value,
          verified: check?.verified ?? false,
          problem: check?.problem ?? null,
        };
      }),
      fromAddress: row.address,
      verifiedWhitelabel: row.verified === 1,
    };
  }

  return {
    facts: async (companyId: string) => facts(await repo.find(companyId)),

    /** PUT /api/company/sender (admin): a new address gets a new key and must be verified again. */
    async set(actor: Actor, input: TSenderUpdate): Promise<TCompany> {
      const current = await repo.find(actor.companyId);
      const event = companyChanged("company.sender_changed", actor.companyId, { address: input.address ?? "" });
      if (input.address === null) {
        if (current) await audit.within(ctx.db, event, (trx) => senderRepo(trx).remove(actor.companyId));
      } else if (current?.address.toLowerCase() !== input.address.toLowerCase()) {
        const key = newDkimKey();
        const row: CompanySendersTable = {
          company_id: actor.companyId,
          address: input.address,
          domain: input.address.split("@")[1].toLowerCase(),
          // A selector of its own per key, so a new key never collides with a record still cached.
          selector: `rz${newId(8)
            .toLowerCase()
            .replace(/[^a-z0-9]/g, "")}`,
          dkim_private: seal(ctx.config.appKey, key.privatePem),
          dkim_public: key.publicBase64,
          checks: "[]",
          verified: 0,
          checked_at: null,
          created_at: nowIso(),
        };
        await audit.within(ctx.db, event, (trx) => senderRepo(trx).replace(row));
      }
      return companies().get(actor.companyId);
    },

    /** POST /api/company/sender/verify (admin): looks every record up and keeps the outcome. */
    async verify(actor: Actor): Promise<TCompany> {
      const row = await repo.find(actor.companyId);
      if (!row) throw AppError.validation({ address: [SENDER_MESSAGES.notSet] });
      const checks = await checkRecords(records(row), ctx.config.sender.dnsServers);
      await repo.saveChecks(
        actor.companyId,
        JSON.stringify(checks),
        checks.every((check) => check.verified),
        nowIso(),
      );
      return companies().get(actor.companyId);
    },

    /**
     * Who a company's mail comes from: its name always; its own address and DKIM signature only once
     * its sender is verified (otherwise MAIL_FROM, the product's no-reply address, docs/product.md §9).
     */
    async senderFor(companyId: string): Promise<{ fromName: string; fromAddress?: string; dkim?: MailDkim }> {
      const fromName = (await companies().load(companyId)).name;
      const row = await repo.find(companyId);
      if (row?.verified !== 1) return { fromName };
      return {
        fromName,
        fromAddress: row.address,
        dkim: {
          domainName: row.domain,
          keySelector: row.selector,
          privateKey: unseal(ctx.config.appKey, row.dkim_private),
        },
      };
    },
  };
}

export type SenderService = ReturnType<typeof senderService>;
