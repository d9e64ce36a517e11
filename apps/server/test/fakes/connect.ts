import { expect } from "vitest";
import type { Connector } from "../../src/connectors/types";
import type { TestClient } from "../harness";
import { connectOAuth } from "./oauth-connect";

/** The typed login a connector's fake takes (its fake.ts's `fakeLogin`). */
export async function fakeLoginOf(connector: Connector, origin: string): Promise<Record<string, string>> {
  const { fakeLogin } = (await import(/* @vite-ignore */ `../../src/connectors/${connector.key}/fake`)) as {
    fakeLogin?: (origin: string) => Record<string, string>;
  };
  if (!fakeLogin) throw new Error(`connectors/${connector.key}/fake.ts exports no fakeLogin for its typed login`);
  return fakeLogin(origin);
}

/**
 * Connects a source to the connector's fake (running at `origin`) as the sources page does: the consent
 * popup, or the typed login. Its id.
 */
export async function connectToFake(client: TestClient, connector: Connector, origin: string): Promise<string> {
  if (connector.authKind === "oauth2") {
    const body = connector.oauthAccount ? { account: "Acme Agency" } : {};
    const connected = await connectOAuth(client, connector.key, body);
    expect(connected.result, connector.key).toMatchObject({ ok: true });
    return connected.result.sourceId;
  }
  const created = await client.api("POST", "/api/sources", {
    name: connector.key,
    ...(await fakeLoginOf(connector, origin)),
  });
  expect(created.statusCode, `${connector.key}: ${created.body}`).toBe(200);
  return created.json().data.id;
}
