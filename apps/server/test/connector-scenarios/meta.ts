import { shiftDay } from "@app/core";
import { afterAll } from "vitest";
import { type FakeMeta, META_USER, metaFake } from "../../src/connectors/meta/fake";
import { META_DEFAULT_VERSIONS } from "../../src/connectors/meta/versions";
import type { Connector } from "../../src/connectors/types";
import { type FakeFault, fakesForFile } from "../fakes/app";
import type { TestClient } from "../harness";

/**
 * What the Meta connectors' scenario declarations share (Facebook Ads, Facebook Social, Instagram:
 * connectors/<key>/scenarios.test.ts): Meta's error envelope, its throttling with the business use case
 * header naming the wait, its outage, and the user removing the app's grant.
 */

/** The Graph API's version the fakes and the server's default speak (Pages, Instagram): `/v25.0/<node>/…`. */
export const GRAPH = `/${META_DEFAULT_VERSIONS.graph}`;
/** The Marketing API's (Facebook Ads): its own version, ended on other days (connectors/meta/versions.ts). */
export const MARKETING = `/${META_DEFAULT_VERSIONS.marketing}`;

/** Meta's error body (an OAuthException and its code). */
export const metaErrorBody = (code: number, message: string, extra: Record<string, unknown> = {}) => ({
  error: { message, type: "OAuthException", code, fbtrace_id: "AfakeTrace", ...extra },
});

/**
 * Meta throttling one object (an ad account, a Page, an Instagram account): a 400 with the throttle's
 * code, and the `x-business-use-case-usage` header naming the seconds until access returns, which the
 * client holds the object for (so the limited query takes an object of its own).
 */
export function metaThrottled(
  object: string,
  throttle: { type: string; code: number; message: string; wait: number; subcode?: number; appUsage?: boolean },
): FakeFault[] {
  return [
    {
      status: 400,
      pathIncludes: `/${object}/insights`,
      headers: {
        "x-business-use-case-usage": JSON.stringify({
          [object]: [
            {
              type: throttle.type,
              call_count: 100,
              total_cputime: 20,
              total_time: 30,
              estimated_time_to_regain_access: throttle.wait,
            },
          ],
        }),
        ...(throttle.appUsage && {
          "x-app-usage": JSON.stringify({ call_count: 12, total_cputime: 3, total_time: 4 }),
        }),
      },
      body: metaErrorBody(throttle.code, throttle.message, {
        is_transient: true,
        ...(throttle.subcode && { error_subcode: throttle.subcode }),
      }),
    },
  ];
}

/** Meta down for an object's insights (code 2, transient), as many as outlast the client's retries. */
export function metaDown(object: string, status = 500): FakeFault[] {
  return Array.from({ length: 3 }, () => ({
    status,
    pathIncludes: `/${object}/insights`,
    body: metaErrorBody(2, "An unexpected error has occurred. Please retry your request later.", {
      is_transient: true,
    }),
  }));
}

/** The user removing the app's grant: Meta refuses the user's and the Pages' tokens (code 190). */
export async function revokeMetaGrant(meta: FakeMeta) {
  meta.revoked.add(META_USER.id);
  return () => {
    meta.revoked.delete(META_USER.id);
  };
}

/** The connector's notices in Meta's words (the product names the connector). */
export const metaNotices = (title: string) => ({
  limited: `${title} is limiting requests`,
  down: `${title} is not answering`,
  reconnect: `${title} needs to be reconnected`,
});

/**
 * The days a Page or Instagram insights request asked for: `since` is the first day and `until` the day
 * after the last (Meta's bound is exclusive); null for another request.
 */
export function metaInsightsDays(call: { query: Record<string, string> }): { first: string; last: string } | null {
  const { since, until } = call.query;
  if (!since || !until) return null;
  return { first: since, last: shiftDay(until, -1) };
}

/**
 * What the Facebook Social and Instagram description tests share (connectors/<key>/description.test.ts,
 * both over ../../src/connectors/meta/pages-graph-sdk.json): the Meta fake for the file, the connector's
 * description, its form's options, a Graph address, and the calls since a point that the description
 * covers with their kinds (ids written `{id}`).
 */
export function pagesDescriptionSetUp(connector: Connector, type: string) {
  const fakes = fakesForFile(afterAll, () => ({ meta: metaFake() }));
  const description = () => {
    if (!connector.description) throw new Error(`${connector.displayName} has no pinned description`);
    return connector.description();
  };
  const options = async (client: TestClient, id: string, kind: string, form = "") =>
    (
      (await client.api("GET", `/api/sources/${id}/${kind}?type=${type}${form}`)).json().data as { value: string }[]
    ).map((option) => option.value);
  const graphUrl = (path: string, query: Record<string, string> = {}) => {
    const address = new URL(`https://graph.facebook.com${path}`);
    for (const [name, value] of Object.entries(query)) address.searchParams.set(name, value);
    return address;
  };
  const coveredCalls = async (from: number) => {
    const checks = await description();
    const calls = (await fakes.current()).calls
      .slice(from)
      .filter((call) => checks.covers?.({ method: call.method, url: new URL(call.path, "http://graph") }));
    const kinds = [...new Set(calls.map((call) => `${call.method} ${call.path.replace(/\d{6,}/g, "{id}")}`))].sort();
    return { checks, calls, kinds };
  };
  return { fakes, description, options, graphUrl, coveredCalls };
}
