import {
  PASSKEY_MESSAGES,
  type TPasskey,
  type TPasskeyAssertion,
  type TPasskeyCreate,
  type TPasskeyCreated,
  type TPasskeyRemove,
} from "@app/core";
import type { AppContext } from "../../context";
import type { PasskeysTable, UsersTable } from "../../infra/db/schema";
import { AppError, isUniqueViolation } from "../../infra/errors";
import { newId, nowIso, verifyPassword } from "../../infra/security";
import { passkeyChanged } from "../audit/events";
import { auditLog } from "../audit/record";
import type { AuthService, AuthState } from "../auth/service";
import { dropCodesWithoutSecondFactor, recoveryCodesForFirstPasskey } from "../two-factor/passkey-codes";
import { userAccounts } from "../users/service";
import { ceremonies, transportsOf, webauthnLibrary } from "./ceremony";
import { passkeyMail } from "./mail";
import { passkeysRepo } from "./repo";

function present(row: PasskeysTable): TPasskey {
  return {
    id: row.id,
    name: row.name,
    transports: transportsOf(row),
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}

const unknownPasskey = () => AppError.validation({ passkey: [PASSKEY_MESSAGES.unknown] });

/**
 * Passkeys (docs/product.md §7): a signed-in user registers, renames and removes their own; anyone signs
 * in with one instead of a password; and a known user's assertion can be checked on its own
 * (`verifyForUser`), for a second sign-in step or to confirm a removal.
 */
/**
 * @param forgetSessions makes every process drop its cached sessions: they keep whether their user has a
 * second factor (features/two-factor/requirement.ts), which adding or removing a passkey changes.
 */
export function passkeysService(ctx: AppContext, auth: AuthService, forgetSessions: () => void) {
  const repo = passkeysRepo(ctx.db);
  const webauthn = ceremonies(ctx, repo);
  const users = userAccounts(ctx.db);

  /** Tells the user about a change to their passkeys; the change stands even if the mail cannot go. */
  async function notify(state: AuthState, change: "added" | "removed", name: string) {
    const mail = passkeyMail(ctx.config, state, change, name);
    await ctx.mailer.send(mail).catch((error: unknown) => ctx.logger.error({ err: error }, "passkey mail failed"));
  }

  /**
   * Checks an assertion of one of `userId`'s passkeys, answered to `optionsForUser(userId)`: resolves
   * when it holds, and rejects with a 422 (`passkey`) otherwise.
   */
  async function verifyForUser(userId: string, response: TPasskeyAssertion): Promise<void> {
    const passkey = await repo.findOfUserByCredentialId(userId, response.id);
    if (!passkey) throw unknownPasskey();
    await webauthn.verifyAssertion(response, passkey, "verify", userId);
  }

  return {
    verifyForUser,

    /** Whether the user has a passkey at all (a second sign-in step offers it then). */
    hasPasskey: async (userId: string): Promise<boolean> => (await repo.countOfUser(userId)) > 0,

    /** Assertion options for a known user: only their passkeys are allowed (then `verifyForUser`). */
    async optionsForUser(user: UsersTable) {
      const allowed = await repo.listOfUser(user.company_id, user.id);
      if (allowed.length === 0) throw unknownPasskey();
      return webauthn.assertionOptions("verify", user.id, allowed);
    },

    async list(state: AuthState): Promise<TPasskey[]> {
      return (await repo.listOfUser(state.company.id, state.user.id)).map(present);
    },

    async registrationOptions(state: AuthState) {
      return webauthn.registrationOptions(state.user, await repo.listOfUser(state.company.id, state.user.id));
    },

    /** A new passkey; a user's first one that is their only second factor comes with recovery codes (shown once). */
    async register(state: AuthState, input: TPasskeyCreate): Promise<TPasskeyCreated> {
      const credential = await webauthn.verifyRegistration(state.user, input.response);
      const [, { isoBase64URL }] = await webauthnLibrary();
      const row: PasskeysTable = {
        id: newId(),
        company_id: state.company.id,
        user_id: state.user.id,
        credential_id: credential.id,
        public_key: isoBase64URL.fromBuffer(credential.publicKey),
        counter: credential.counter,
        transports: JSON.stringify(credential.transports ?? input.response.response.transports ?? []),
        name: input.name,
        created_at: nowIso(),
        last_used_at: null,
      };
      let recoveryCodes: string[] | null;
      try {
        recoveryCodes = await auditLog(ctx).within(ctx.db, passkeyChanged("passkey.added", row), async (trx) => {
          // Before the insert: whether this is the user's first passkey and only second factor.
          const codes = await recoveryCodesForFirstPasskey(ctx, trx, state.user);
          await passkeysRepo(trx).insert(row);
          return codes;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw AppError.validation({ passkey: [PASSKEY_MESSAGES.duplicate] });
        throw error;
      }
      forgetSessions();
      await notify(state, "added", row.name);
      return { ...present(row), ...(recoveryCodes && { recoveryCodes }) };
    },

    async rename(state: AuthState, id: string, name: string): Promise<TPasskey> {
      if (!(await repo.rename(state.company.id, state.user.id, id, name))) throw AppError.notFound();
      const row = await repo.find(state.company.id, state.user.id, id);
      if (!row) throw AppError.notFound();
      return present(row);
    },

    /** Removal asks again who is there: the password, or an assertion of one of the user's passkeys. */
    async remove(state: AuthState, id: string, input: TPasskeyRemove): Promise<void> {
      const passkey = await repo.find(state.company.id, state.user.id, id);
      if (!passkey) throw AppError.notFound();
      if (input.response) {
        await verifyForUser(state.user.id, input.response);
      } else if (!input.password) {
        throw AppError.validation({ password: [PASSKEY_MESSAGES.passwordRequired] });
      } else if (!(await verifyPassword(state.user.password_hash, input.password))) {
        throw AppError.validation({ password: [PASSKEY_MESSAGES.passwordWrong] });
      }
      const removed = await auditLog(ctx).within(
        ctx.db,
        (done: boolean) => (done ? passkeyChanged("passkey.removed", passkey) : null),
        async (trx) => {
          const done = await passkeysRepo(trx).delete(state.company.id, state.user.id, id);
          // The last second factor gone: its recovery codes go with it.
          if (done) await dropCodesWithoutSecondFactor(trx, state.user);
          return done;
        },
      );
      if (!removed) throw AppError.notFound();
      forgetSessions();
      await notify(state, "removed", passkey.name);
    },

    signInOptions: () => webauthn.assertionOptions("sign-in", null, []),

    /** A passwordless sign-in: a new session as POST /login makes one (the previous one ended). */
    async signIn(
      response: TPasskeyAssertion,
      previousToken: string | null,
    ): Promise<{ token: string; redirect: string }> {
      const passkey = await repo.findByCredentialId(response.id);
      if (!passkey) throw unknownPasskey();
      await webauthn.verifyAssertion(response, passkey, "sign-in", null);
      const user = await users.find(passkey.company_id, passkey.user_id);
      if (!user) throw unknownPasskey();
      await auth.logout(previousToken);
      return { token: await auth.startSession(user), redirect: "/dashboards" };
    },
  };
}

export type PasskeysService = ReturnType<typeof passkeysService>;
