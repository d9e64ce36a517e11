import { allowedBeforeTwoFactorSetup } from "@app/core";
import type { FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { AppError } from "../../infra/errors";
import { auditLog } from "../audit/record";
import type { AuthState } from "../auth/service";
import { twoFactorRepo } from "./repo";
import { hasSecondFactor } from "./second-factor";

const ADMIN_FIRST = "Turn on two-factor sign-in for yourself first.";

/**
 * "Two-factor required" (a company setting): a member without a second factor is held at the set-up,
 * in a session already open as at their next sign-in, until they have one.
 */
export function twoFactorRequirement(ctx: AppContext, forgetSessions: () => void) {
  /**
   * The answer kept on the session's cached state: while a company requires two-factor, every API
   * request asks, and a member who has a factor would otherwise cost two queries each time. A change
   * of the user's factors (two-factor's commitChange, a passkey added or removed, the operator's reset)
   * drops every process's cached sessions, so the next request asks the database again.
   */
  async function secondFactorOf(state: AuthState): Promise<boolean> {
    state.secondFactor ??= await hasSecondFactor(ctx.db, state.user);
    return state.secondFactor;
  }

  return {
    async setupRequired(state: AuthState): Promise<boolean> {
      return state.company.require_two_factor === 1 && !(await secondFactorOf(state));
    },

    /** The setting (admins: the route checks the role). */
    async setCompanyRequirement(state: AuthState, required: boolean): Promise<{ required: boolean }> {
      // The admin who requires it is held to it too: never locked out by their own setting.
      if (required && !(await hasSecondFactor(ctx.db, state.user))) {
        throw AppError.validation({ required: [ADMIN_FIRST] });
      }
      const event = {
        action: "two_factor.company_required",
        companyId: state.user.company_id,
        details: { required },
      } as const;
      await auditLog(ctx).within(ctx.db, event, (trx) =>
        twoFactorRepo(trx).setCompanyRequirement(state.user.company_id, required),
      );
      // Sessions cache their company row: every process reads the requirement again.
      forgetSessions();
      return { required };
    },

    /**
     * The request hook (app.ts adds it after the session is resolved): a member without a second factor
     * may only set one up; the API's other routes answer a 403 saying so (the web app shows the set-up).
     */
    async enforceRequirement(request: FastifyRequest): Promise<void> {
      const state = request.auth;
      if (!state?.company.require_two_factor) return;
      if (allowedBeforeTwoFactorSetup(request.method, request.url)) return;
      if (await secondFactorOf(state)) return;
      throw new AppError("two_factor_required");
    },
  };
}
