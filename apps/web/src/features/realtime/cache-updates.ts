import type {
  TCampaignAlertsUpdated,
  TCompany,
  TCompanySourceUpdated,
  TCompanySubscriptionUpdated,
  TPageData,
  TWidgetAlertsUpdated,
  TWidgetInstance,
} from "@app/core";
import type { QueryClient, QueryKey } from "@tanstack/react-query";
import { campaignKeys } from "../campaigns/keys";
import { companyKeys } from "../company/keys";
import { pageDataKey } from "../session/keys";
import { sourceKeys } from "../sources/keys";
import { widgetKeys } from "../widgets/keys";

/** A widget-data query key (`[prefix, instances, range, access]`) whose request reads the source `sourceId`. */
export function widgetDataReadsSource(queryKey: QueryKey, sourceId: string): boolean {
  if (queryKey[0] !== widgetKeys.data[0]) return false;
  const instances = queryKey[1];
  return (
    Array.isArray(instances) &&
    instances.some((instance: Partial<TWidgetInstance> | null) => instance?.sourceId === sourceId)
  );
}

/**
 * CompanySourceUpdated (docs/product.md §4): the sources list becomes the one the event carries, and every widget
 * reading the changed source fetches again (mounted ones at once, others when next shown). The banner
 * of invalid sources follows: page data is fetched again when the event changes whether one is invalid.
 */
export async function applySourceUpdate(queryClient: QueryClient, update: TCompanySourceUpdated): Promise<void> {
  queryClient.setQueryData(sourceKeys.all, update.sources);
  const pageData = queryClient.getQueryData<TPageData>(pageDataKey);
  const bannerShown = pageData?.messages.some((message) => message.code === INVALID_SOURCE_MESSAGE) ?? false;
  const anyInvalid = update.sources.some((source) => source.invalid);
  const readsSource = (query: { queryKey: QueryKey }) => widgetDataReadsSource(query.queryKey, update.id);
  await Promise.all([
    // A deleted source's data is gone: its widgets start over (and show the failure) rather than keep
    // the last table on screen, as a failed refresh of a source that still exists does.
    update.sources.some((source) => source.id === update.id)
      ? queryClient.invalidateQueries({ predicate: readsSource })
      : queryClient.resetQueries({ predicate: readsSource }),
    pageData && bannerShown !== anyInvalid ? queryClient.invalidateQueries({ queryKey: pageDataKey }) : null,
  ]);
}

/** Banner 125 (docs/product.md §8): a source needs re-authorising. */
const INVALID_SOURCE_MESSAGE = 125;

/**
 * CompanySubscriptionUpdated (docs/product.md §4): the company's state and services change in place at once; its
 * derived flags and the banners (global messages) are the server's to compute, so both are fetched again.
 */
export async function applySubscriptionUpdate(
  queryClient: QueryClient,
  update: TCompanySubscriptionUpdated,
): Promise<void> {
  const patch = (company: TCompany) => ({ ...company, state: update.state, services: update.services });
  queryClient.setQueryData<TPageData>(pageDataKey, (data) =>
    data?.company ? { ...data, company: patch(data.company) } : data,
  );
  queryClient.setQueryData<TCompany>(companyKeys.company, (company) => (company ? patch(company) : company));
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: pageDataKey }),
    queryClient.invalidateQueries({ queryKey: companyKeys.company }),
  ]);
}

/**
 * CampaignAlertsUpdated: alerts of some groups opened or resolved (or a snooze hid them). The groups
 * list's counts and those groups' pages are fetched again, so an open group page shows a new alert
 * without a reload.
 */
export async function applyCampaignAlertsUpdate(
  queryClient: QueryClient,
  update: TCampaignAlertsUpdated,
): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: campaignKeys.list }),
    ...update.campaign_ids.map((id) => queryClient.invalidateQueries({ queryKey: campaignKeys.detail(id) })),
  ]);
}

/**
 * WidgetAlertsUpdated: alerts on widget metrics of these dashboards opened or resolved (or a rule
 * changed). Their open alerts (the cards' badges) and widget lists are fetched again, so an open
 * dashboard shows the bell without a reload.
 */
export async function applyWidgetAlertsUpdate(queryClient: QueryClient, update: TWidgetAlertsUpdated): Promise<void> {
  // By the shape of widget-alerts/keys.ts (["widget-alerts", dashboardId, …] and ["widget-alerts", "open",
  // dashboardId]) rather than by importing it: shared with the alerts' own chunk, the keys became a chunk of
  // their own whose name every page's preload list carried, past the public view's budget.
  const ids = new Set(update.dashboard_ids);
  await queryClient.invalidateQueries({
    predicate: ({ queryKey }) =>
      queryKey[0] === "widget-alerts" &&
      (ids.has(String(queryKey[1])) || (queryKey[1] === "open" && ids.has(String(queryKey[2])))),
  });
}

/**
 * The channel was subscribed: whatever was said on it before is lost, since the server keeps no backlog.
 * So what the events above keep fresh is fetched again (mounted queries at once, the others when next
 * shown), after either kind of gap:
 * - `again`, after a lost connection, a server that restarted or ended the socket: everything, widget
 *   data included. Without it, an alert opened or a source re-authorised during a reconnection stayed out
 *   of an open page until it was reloaded.
 * - the first subscription, after the page's own loading: its first answers were read before the page
 *   listened, and on a busy machine the socket's chunk, handshake and authorisation come seconds after
 *   the cards. An alert that fired in between never showed its bell. Everything but widget data: a card's
 *   data only changes with its source (a re-authorisation or a removal in that same second), while
 *   fetching every card again would double each dashboard's first load.
 */
export async function catchUpOnSubscribe(queryClient: QueryClient, { again }: { again: boolean }): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: pageDataKey }),
    queryClient.invalidateQueries({ queryKey: companyKeys.company }),
    queryClient.invalidateQueries({ queryKey: sourceKeys.all }),
    again ? queryClient.invalidateQueries({ queryKey: widgetKeys.data }) : null,
    queryClient.invalidateQueries({ queryKey: campaignKeys.list }),
    // Every group's page: the prefix its detail keys share.
    queryClient.invalidateQueries({ queryKey: campaignKeys.detail("").slice(0, 2) }),
    // By the shape of widget-alerts/keys.ts, as in applyWidgetAlertsUpdate.
    queryClient.invalidateQueries({ predicate: ({ queryKey }) => queryKey[0] === "widget-alerts" }),
  ]);
}
