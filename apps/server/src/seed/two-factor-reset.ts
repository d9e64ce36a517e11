import pino from "pino";
import type { AppContext } from "../context";
import { resetSecondFactor } from "../features/two-factor/reset";
import { createInfra } from "../infra";
import { type CliOutput, isEntryPoint, runOperatorCommand } from "./cli";

const USAGE = `Reset a user's second factor (docs/operations.md "Resetting a user's second factor"):
  npm run two-factor:reset -- user@example.com
Removes the user's authenticator and recovery codes, ends all their sessions and e-mails them.`;

/** Runs the reset for the e-mail in `args`; returns the exit code (0 done, 1 no such user, 2 wrong usage). */
export async function runTwoFactorResetCli(args: string[], ctx: AppContext, io: CliOutput): Promise<number> {
  if (args.length !== 1 || !args[0].includes("@")) {
    io.error(USAGE);
    return 2;
  }
  if (!(await resetSecondFactor(ctx, args[0]))) {
    io.error(`No user has the e-mail ${args[0]}.`);
    return 1;
  }
  io.out(`Two-factor sign-in was reset for ${args[0]}: they sign in with their password and may set it up again.`);
  return 0;
}

/**
 * `npm run two-factor:reset -- …`: the app's own settings (.env, DATABASE_URL or DATA_DIR, REDIS_URL so
 * the running web processes drop the user's sessions at once, SMTP_URL for the notice), migrated first.
 */
async function main() {
  await runOperatorCommand(async (config, io, args) => {
    const infra = await createInfra(config, { logger: pino({ level: "warn" }) });
    try {
      return await runTwoFactorResetCli(args, { ...infra, config }, io);
    } finally {
      await infra.close();
    }
  });
}

if (isEntryPoint(import.meta.url)) await main();
