import { randomInt } from "node:crypto";
import {
  classifyCode,
  formatRecoveryCode,
  RECOVERY_ALPHABET,
  RECOVERY_CODE_COUNT,
  RECOVERY_CODE_LENGTH,
} from "@app/core";
import type { AppContext } from "../../context";
import type { Db } from "../../infra/db";
import { hmac, nowIso, unseal } from "../../infra/security";
import { twoFactorRepo } from "./repo";
import { acceptedStep } from "./totp";

/** A user whose code is checked: who, and in which company (every query is scoped to it). */
export interface CodeOwner {
  id: string;
  company_id: string;
}

/**
 * Recovery codes are stored as an HMAC keyed with APP_KEY over the user and the code: ten random
 * characters of a 31-letter alphabet (about 50 bits) need no slow hash to be out of a guesser's reach,
 * and a leaked table alone gives nothing (docs/decisions.md "Two-factor sign-in with TOTP").
 */
export function recoveryCodeHash(appKey: string, userId: string, code: string): string {
  return Buffer.from(hmac(appKey, `recovery:${userId}:${code}`), "base64url").toString("hex");
}

/** Ten new recovery codes (as shown: "abcde-fghjk") and their hashes. */
export function newRecoveryCodes(appKey: string, userId: string): { shown: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    Array.from({ length: RECOVERY_CODE_LENGTH }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join(""),
  );
  return { shown: codes.map(formatRecoveryCode), hashes: codes.map((code) => recoveryCodeHash(appKey, userId, code)) };
}

/**
 * Checks a typed code for a user whose two-factor is on, and spends it: an authenticator code moves the
 * user's last used time step forward (so it, and any older one, never passes again), a recovery code is
 * marked used. Each in one conditional UPDATE, so of two requests racing with one code only one passes.
 */
export async function spendCode(ctx: AppContext, owner: CodeOwner, typed: string, db: Db = ctx.db): Promise<boolean> {
  const repo = twoFactorRepo(db);
  const code = classifyCode(typed);
  if (code.kind === "recovery") {
    return repo.useRecoveryCode(
      owner.company_id,
      owner.id,
      recoveryCodeHash(ctx.config.appKey, owner.id, code.code),
      nowIso(),
    );
  }
  if (code.kind !== "totp") return false;
  const row = await repo.find(owner.company_id, owner.id);
  if (!row?.enabled_at) return false;
  const secret = openSecret(ctx.config.appKey, row.secret_sealed);
  const step = secret === null ? null : acceptedStep(secret, code.code, ctx.clock.now());
  return step !== null && repo.useStep(owner.company_id, owner.id, step);
}

/** The stored secret, or null when it was sealed under another APP_KEY (its codes are refused, never a 500). */
export function openSecret(appKey: string, sealed: string): string | null {
  try {
    return unseal(appKey, sealed);
  } catch {
    return null;
  }
}
