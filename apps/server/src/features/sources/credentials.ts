import { connectorNameInText, sourceCredentialErrors, type TSourceCredentials } from "@app/core";
import { z } from "zod";
import { type Connector, type ConnectorRuntime, ProviderError } from "../../connectors";
import type { AppContext } from "../../context";
import { AppError } from "../../infra/errors";
import { seal, unseal } from "../../infra/security";

const ZStoredCredentials = z.record(z.string(), z.string());

/** The typed fields of a credentials form that hold a value. */
export function credentialFields(input: TSourceCredentials): Record<string, string> {
  return Object.fromEntries(
    Object.entries(input).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}

/** Stored credentials opened with APP_KEY; throws when they were sealed under another key. */
export function unsealCredentials(appKey: string, sealed: string): Record<string, string> {
  return ZStoredCredentials.parse(JSON.parse(unseal(appKey, sealed)));
}

/** A connector's typed credentials: their form rules, the provider's check, and how they are stored. */
export function sourceCredentials(ctx: AppContext, runtime: ConnectorRuntime) {
  return {
    check(connector: Connector, credentials: TSourceCredentials): void {
      // An OAuth connector that also takes a pasted token (`tokenLogin`) needs the token on this form.
      const errors = sourceCredentialErrors(connector.tokenLogin ? "token" : connector.authKind, credentials);
      const fields = Object.fromEntries(Object.entries(errors).map(([field, message]) => [field, [message]]));
      if (Object.keys(fields).length > 0) throw AppError.validation(fields);
    },

    /**
     * A typed login checked with the provider before it is stored (Connector.verify): refused → the
     * form's 422 on the field in the provider's words; not answering → a 422 saying so. Nothing is saved.
     * Answers the account and, when the connector keeps them in a shape of its own, the credentials to store.
     */
    async verify(
      connector: Connector,
      input: TSourceCredentials,
    ): Promise<{ account: string | null; stored: Record<string, string> | null }> {
      if (!connector.verify) return { account: input.account ?? null, stored: null };
      try {
        const checked = await connector.verify({
          account: input.account ?? null,
          credentials: credentialFields({ token: input.token, site: input.site }),
          runtime,
        });
        return { account: checked?.account ?? input.account ?? null, stored: checked?.credentials ?? null };
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
    },

    /** The typed secret fields sealed, or the connector's own credentials from `verify` when it gave some. */
    seal(credentials: TSourceCredentials, stored: Record<string, string> | null = null): string | null {
      const secret = stored ?? credentialFields({ token: credentials.token, site: credentials.site });
      return Object.keys(secret).length > 0 ? seal(ctx.config.appKey, JSON.stringify(secret)) : null;
    },
  };
}
