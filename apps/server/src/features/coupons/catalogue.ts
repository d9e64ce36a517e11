import { couponKey, type TCouponDefinition, ZCouponDefinition } from "@app/core";
import type { Db } from "../../infra/db";
import type { CouponsTable } from "../../infra/db/schema";
import { isUniqueViolation } from "../../infra/errors";
import { couponsRepo } from "./repo";

/** A definition the operator must fix; the message is for a person at a terminal. */
export class CouponDefinitionError extends Error {}

/** Zod's issues as plain lines: "value: The value must be a number above 0." */
function describeIssues(input: unknown): TCouponDefinition {
  const parsed = ZCouponDefinition.safeParse(input);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    const field = issue.path.join(".");
    // An unknown key of the strict object names itself; the rest read "field: message".
    if (issue.code === "unrecognized_keys") return `Unknown field(s): ${issue.keys.join(", ")}.`;
    return field ? `${field}: ${issue.message}` : issue.message;
  });
  throw new CouponDefinitionError(lines.join("\n"));
}

function rowOf(definition: TCouponDefinition, now: Date): CouponsTable {
  return {
    code_key: couponKey(definition.code),
    code: definition.code,
    type: definition.type,
    value: definition.value,
    name: definition.name || definition.code,
    max_redemptions: definition.max ?? null,
    redemptions: 0,
    // "Expires 2027-01-01": the code works through Dec 31 and stops at midnight UTC.
    expires_at: definition.expires ? new Date(`${definition.expires}T00:00:00Z`).toISOString() : null,
    created_at: now.toISOString(),
  };
}

/**
 * The operator's side of coupons (no admin UI: the `npm run coupons` CLI, apps/server/src/seed/coupons.ts).
 * Definitions are checked with the contract's ZCouponDefinition, so a bad value never reaches a company.
 */
export function couponCatalogue(db: Db, now: () => Date = () => new Date()) {
  const repo = couponsRepo(db);
  return {
    /** Adds one coupon; an existing code (any case) is refused, as is any bad field. */
    async add(input: unknown): Promise<CouponsTable> {
      const row = rowOf(describeIssues(input), now());
      if (await repo.find(row.code_key))
        throw new CouponDefinitionError(`A coupon with the code ${row.code} already exists.`);
      try {
        await repo.insert(row);
      } catch (error) {
        if (isUniqueViolation(error))
          throw new CouponDefinitionError(`A coupon with the code ${row.code} already exists.`);
        throw error;
      }
      return row;
    },

    /**
     * A JSON list of definitions, all or nothing: every entry is checked first (the errors name the
     * entry), then new codes are added and known ones get the new definition, keeping their redemptions,
     * so the same file can be imported again after an edit.
     */
    async importAll(input: unknown): Promise<{ added: string[]; updated: string[] }> {
      if (!Array.isArray(input)) throw new CouponDefinitionError("The file must hold a JSON list of coupons.");
      const problems: string[] = [];
      const rows: CouponsTable[] = [];
      const seen = new Set<string>();
      input.forEach((entry, index) => {
        const label = `Entry ${index + 1}${typeof entry?.code === "string" ? ` (${entry.code})` : ""}`;
        try {
          const row = rowOf(describeIssues(entry), now());
          if (seen.has(row.code_key)) throw new CouponDefinitionError(`The code ${row.code} is in the file twice.`);
          seen.add(row.code_key);
          rows.push(row);
        } catch (error) {
          if (!(error instanceof CouponDefinitionError)) throw error;
          problems.push(...error.message.split("\n").map((line) => `${label}: ${line}`));
        }
      });
      if (problems.length > 0) throw new CouponDefinitionError(problems.join("\n"));
      const added: string[] = [];
      const updated: string[] = [];
      await db.transaction().execute(async (trx) => {
        const tx = couponsRepo(trx);
        for (const row of rows) {
          if (await tx.find(row.code_key)) {
            const { redemptions: _kept, created_at: _first, ...definition } = row;
            await tx.updateDefinition(definition);
            updated.push(row.code);
          } else {
            await tx.insert(row);
            added.push(row.code);
          }
        }
      });
      return { added, updated };
    },

    list(): Promise<CouponsTable[]> {
      return repo.list();
    },
  };
}
