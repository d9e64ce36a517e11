import { expect } from "vitest";
import type { FakeGoogle } from "../../src/connectors/google/fake";
import { seal, unseal } from "../../src/infra/security";
import { connectOAuth } from "../fakes/oauth-connect";
import type { TestClient, TestEnv } from "../harness";

/**
 * What the Google connectors' scenario declarations share (connectors/<key>/scenarios.test.ts): one Google
 * login, one grant per source, and the user removing our access in their Google account.
 */

/** Connects a Google connector through the fake's consent, as the sources page's popup does; its id. */
export async function connectGoogle(client: TestClient, connector: string): Promise<string> {
  const connected = await connectOAuth(client, connector);
  expect(connected.result).toMatchObject({ ok: true, connector });
  return connected.result.sourceId;
}

/**
 * The user removed our access: the grant's refresh is refused (invalid_grant), every access token handed
 * out is dead, and the source's stored one is past its expiry, so the next request must refresh. The
 * undo lets the refresh token work again (later scenarios connect sources of their own anyway).
 */
export async function revokeGoogleGrant(google: FakeGoogle, env: TestEnv, sourceId: string) {
  const row = await env.ctx.db
    .selectFrom("sources")
    .select("credentials")
    .where("id", "=", sourceId)
    .executeTakeFirstOrThrow();
  const credentials = JSON.parse(unseal(env.ctx.config.appKey, row.credentials ?? "")) as Record<string, string>;
  const refresh = credentials.refresh_token ?? "";
  google.revoked.add(refresh);
  google.expireAccessTokens();
  await env.ctx.db
    .updateTable("sources")
    .set({ credentials: seal(env.ctx.config.appKey, JSON.stringify({ ...credentials, expires_at: "0" })) })
    .where("id", "=", sourceId)
    .execute();
  return () => {
    google.revoked.delete(refresh);
  };
}

/** Google's error body (google.rpc.Status), as every Google API but Ads' stream sends it. */
export const googleError = (code: number, status: string, message: string) => ({ error: { code, message, status } });
