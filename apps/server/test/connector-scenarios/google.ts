import { afterAll, beforeAll, expect } from "vitest";
import type { FakeGoogle } from "../../src/connectors/google/fake";
import { seal, unseal } from "../../src/infra/security";
import { buildOwner } from "../factories";
import { type FakePart, type RunningFakes, startFakes } from "../fakes/app";
import { connectOAuth } from "../fakes/oauth-connect";
import { startTestEnv, type TestClient, type TestEnv } from "../harness";

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
 * A Google connector's description test set-up (connectors/<key>/description.test.ts): its fakes, a
 * SQLite server on them, an owner and a source connected through the consent, started before the file's
 * tests and closed after them. Its fields are read inside the tests, once they are set.
 */
export function connectedGoogleSource<P extends Record<string, FakePart<unknown>>>(connector: string, parts: () => P) {
  const setUp = {} as {
    fakes: RunningFakes<P>;
    env: TestEnv & { close(): Promise<void> };
    client: TestClient;
    companyId: string;
    sourceId: string;
  };
  beforeAll(async () => {
    setUp.fakes = await startFakes(parts());
    setUp.env = await startTestEnv("sqlite", setUp.fakes.env);
    const owner = await buildOwner(setUp.env);
    setUp.client = owner.client;
    setUp.companyId = owner.company.id;
    setUp.sourceId = await connectGoogle(setUp.client, connector);
  });
  afterAll(async () => {
    await setUp.env?.close();
    await setUp.fakes?.close();
  });
  return setUp;
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
