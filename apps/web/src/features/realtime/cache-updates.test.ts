import type { TCompany, TPageData, TSource } from "@app/core";
import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { campaignKeys } from "../campaigns/keys";
import { companyKeys } from "../company/keys";
import { pageDataKey } from "../session/keys";
import { sourceKeys } from "../sources/keys";
import { widgetAlertKeys } from "../widget-alerts/keys";
import { widgetKeys } from "../widgets/keys";
import {
  applySourceUpdate,
  applySubscriptionUpdate,
  applyWidgetAlertsUpdate,
  catchUpOnSubscribe,
  widgetDataReadsSource,
} from "./cache-updates";

const source = (id: string, invalid = false): TSource => ({
  id,
  name: "demo",
  account: null,
  invalid,
  properties: [],
  expiresAt: null,
});
const range = {
  startDate: "2026-10-01",
  endDate: "2026-10-31",
  compareStartDate: null,
  compareEndDate: null,
  timezone: "UTC",
};
const widgetKey = (...sourceIds: Array<string | null>) =>
  [...widgetKeys.data, sourceIds.map((sourceId, i) => ({ id: `i${i}`, sourceId })), range, null] as const;

const company = { id: "c1", state: "trial", services: { dashboards: 25, bonusDashboards: 0 } } as unknown as TCompany;
const pageData = (codes: number[]) =>
  ({ user: { id: "u1" }, company, messages: codes.map((code) => ({ code })) }) as unknown as TPageData;

/** A client whose queries are all observed (as on a mounted screen), counting fetches per key. */
function screen(keys: ReadonlyArray<readonly unknown[]>) {
  const client = new QueryClient({
    defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false } },
  });
  const fetches = new Map<string, number>();
  for (const key of keys) {
    const fn = vi.fn(async () => {
      fetches.set(JSON.stringify(key), (fetches.get(JSON.stringify(key)) ?? 0) + 1);
      return JSON.stringify(key) === JSON.stringify(pageDataKey) ? pageData([]) : "data";
    });
    new QueryObserver(client, { queryKey: key, queryFn: fn }).subscribe(() => {});
  }
  const settled = () =>
    vi.waitFor(() =>
      expect(
        client
          .getQueryCache()
          .getAll()
          .every((query) => query.state.status === "success"),
      ).toBe(true),
    );
  return { client, settled, fetched: (key: readonly unknown[]) => fetches.get(JSON.stringify(key)) ?? 0 };
}

describe("CompanySourceUpdated in the query cache", () => {
  it("recognises widget requests that read a source", () => {
    expect(widgetDataReadsSource(widgetKey("s1"), "s1")).toBe(true);
    expect(widgetDataReadsSource(widgetKey("s2", "s1"), "s1")).toBe(true);
    expect(widgetDataReadsSource(widgetKey("s2", null), "s1")).toBe(false);
    expect(widgetDataReadsSource(["source-options", "s1"], "s1")).toBe(false);
    expect(widgetDataReadsSource([...widgetKeys.data, "garbage"], "s1")).toBe(false);
  });

  it("replaces the sources and refetches only the widgets over the changed source", async () => {
    const overChanged = widgetKey("s1");
    const overOther = widgetKey("s2");
    const { client, settled, fetched } = screen([overChanged, overOther]);
    await settled();

    await applySourceUpdate(client, { sources: [source("s1"), source("s2")], id: "s1" });
    expect(client.getQueryData(sourceKeys.all)).toEqual([source("s1"), source("s2")]);
    expect(fetched(overChanged)).toBe(2);
    expect(fetched(overOther)).toBe(1);
  });

  it("drops the last answer of widgets over a deleted source, so they show the failure, not stale data", async () => {
    const overDeleted = widgetKey("s1");
    const overOther = widgetKey("s2");
    const { client, settled, fetched } = screen([overDeleted, overOther]);
    await settled();
    const reset = applySourceUpdate(client, { sources: [source("s2")], id: "s1" });
    expect(client.getQueryData(overDeleted)).toBeUndefined();
    expect(client.getQueryData(overOther)).toBe("data");
    await reset;
    expect(fetched(overDeleted)).toBe(2);
    expect(fetched(overOther)).toBe(1);
  });

  it("fetches the page data again only when the invalid-source banner would change", async () => {
    const { client, settled, fetched } = screen([pageDataKey]);
    await settled();
    client.setQueryData(pageDataKey, pageData([]));
    await applySourceUpdate(client, { sources: [source("s1")], id: "s1" });
    expect(fetched(pageDataKey)).toBe(1);
    await applySourceUpdate(client, { sources: [source("s1", true)], id: "s1" });
    expect(fetched(pageDataKey)).toBe(2);
  });
});

describe("CompanySubscriptionUpdated in the query cache", () => {
  it("patches the company at once, then fetches page data (banners) and the company again", async () => {
    const client = new QueryClient();
    client.setQueryData(pageDataKey, pageData([]));
    client.setQueryData(companyKeys.company, company);
    const refetch = vi.spyOn(client, "invalidateQueries");
    const update = { state: "canceled", services: { dashboards: 10, bonusDashboards: 2 } };
    const applied = applySubscriptionUpdate(client, update);
    expect(client.getQueryData<TPageData>(pageDataKey)?.company).toMatchObject(update);
    expect(client.getQueryData<TCompany>(companyKeys.company)).toMatchObject({ id: "c1", ...update });
    await applied;
    expect(refetch.mock.calls.map(([filters]) => filters?.queryKey)).toEqual([pageDataKey, companyKeys.company]);
  });
});

describe("applyWidgetAlertsUpdate", () => {
  it("makes the named dashboards' open alerts and widget lists stale, and no other dashboard's", async () => {
    const client = new QueryClient();
    const keys = {
      open: widgetAlertKeys.open("d1"),
      list: widgetAlertKeys.widget("d1", "w1"),
      otherOpen: widgetAlertKeys.open("d2"),
      otherList: widgetAlertKeys.widget("d2", "w1"),
    };
    for (const key of Object.values(keys)) client.setQueryData(key, []);
    await applyWidgetAlertsUpdate(client, { dashboard_ids: ["d1"], opened: 1, resolved: 0 });
    const stale = Object.fromEntries(
      Object.entries(keys).map(([name, key]) => [name, client.getQueryState(key)?.isInvalidated]),
    );
    expect(stale).toEqual({ open: true, list: true, otherOpen: false, otherList: false });
  });
});

describe("catchUpOnSubscribe", () => {
  const kept = {
    pageData: pageDataKey,
    company: companyKeys.company,
    sources: sourceKeys.all,
    widgetData: widgetKey("s1"),
    groups: campaignKeys.list,
    group: campaignKeys.detail("g1"),
    openAlerts: widgetAlertKeys.open("d1"),
    widgetAlerts: widgetAlertKeys.widget("d1", "w1"),
  };
  const untouched = { groupSources: campaignKeys.sources, options: ["source-options", "s1"] };
  const counts = (fetched: (key: readonly unknown[]) => number, keys: Record<string, readonly unknown[]>) =>
    Object.fromEntries(Object.entries(keys).map(([name, key]) => [name, fetched(key)]));

  it("after a lost connection, fetches again everything the channel's events keep fresh, and nothing else", async () => {
    const { client, settled, fetched } = screen([...Object.values(kept), ...Object.values(untouched)]);
    await settled();
    await catchUpOnSubscribe(client, { again: true });
    expect(counts(fetched, kept)).toEqual(Object.fromEntries(Object.keys(kept).map((name) => [name, 2])));
    expect(counts(fetched, untouched)).toEqual({ groupSources: 1, options: 1 });
  });

  it("after the page's loading, fetches again the same but its cards' data", async () => {
    const { client, settled, fetched } = screen([...Object.values(kept), ...Object.values(untouched)]);
    await settled();
    await catchUpOnSubscribe(client, { again: false });
    expect(counts(fetched, kept)).toEqual({
      ...Object.fromEntries(Object.keys(kept).map((name) => [name, 2])),
      widgetData: 1,
    });
    expect(counts(fetched, untouched)).toEqual({ groupSources: 1, options: 1 });
  });
});
