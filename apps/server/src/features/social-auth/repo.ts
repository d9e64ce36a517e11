import type { Db } from "../../infra/db";
import type { UserIdentitiesTable } from "../../infra/db/schema";

/**
 * Social identities: the only SQL of the social-auth feature. Looked up by provider and subject before
 * anyone is signed in, so (like an e-mail at login) not scoped to a company; the company comes with it.
 */
export function identitiesRepo(db: Db) {
  return {
    /** The identity and the company of its user, or undefined. */
    find(provider: string, subject: string) {
      return db
        .selectFrom("user_identities")
        .innerJoin("users", "users.id", "user_identities.user_id")
        .select(["user_identities.user_id", "users.company_id"])
        .where("user_identities.provider", "=", provider)
        .where("user_identities.subject", "=", subject)
        .executeTakeFirst();
    },
    insert(row: UserIdentitiesTable) {
      return db.insertInto("user_identities").values(row).execute();
    },
  };
}
