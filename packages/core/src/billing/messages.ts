import { type ExpiringSource, expiringSourcesBody } from "../sources/expiry";
import { billingStanding, type CompanyBillingFacts, companyFlags } from "./company-flags";

export type GlobalMessageType = "error" | "warning" | "success" | "info";

export interface GlobalMessage {
  code: number;
  title: string | null;
  body: string;
  closeable: boolean;
  type: GlobalMessageType;
}

/** The banner catalogue of docs/product.md §8, by code. Bodies are HTML; links point at the product's in-app paths. */
export const MESSAGE_CATALOGUE: Readonly<Record<number, GlobalMessage>> = {
  120: {
    code: 120,
    type: "warning",
    closeable: false,
    title: "Your Reportz Trial Is Active",
    body: 'Please <a href="/company/subscription">subscribe</a> to keep using your dashboards after the trial expires. Mission Control groups stay available.',
  },
  121: {
    code: 121,
    type: "warning",
    closeable: true,
    title: "All Dashboards Used Up",
    body: 'You have used all the dashboards of your plan. <a href="/company/subscription">Update your subscription</a> to raise the number of dashboards.',
  },
  122: {
    code: 122,
    type: "warning",
    closeable: true,
    title: "Restored Account",
    body: 'Your account has been restored. <a href="/company/subscription">Subscribe</a> to continue.',
  },
  125: {
    code: 125,
    type: "warning",
    closeable: true,
    title: "Expired Sources",
    body: "Some of your <a href=\"/company\">sources</a> have expired. Re-authorise them to avoid 'Data Error' widgets.",
  },
  130: {
    code: 130,
    type: "warning",
    closeable: true,
    title: "Sources Expiring Soon",
    // The catalogue's wording; the banner shown names the sources and their days (expiringSourcesBody).
    body: 'The login of some of your <a href="/company/sources">sources</a> stops working soon. Reconnect them to keep their widgets showing data.',
  },
  126: {
    code: 126,
    type: "warning",
    closeable: true,
    title: "Canceled Account",
    body: 'Your subscription is canceled. <a href="/company/subscription">See how long the service remains</a> or resubscribe before your dashboards are archived.',
  },
  128: {
    code: 128,
    type: "warning",
    closeable: true,
    title: "Account Overdue",
    body: 'We could not charge your card. <a href="/company/manage-payment">Change or top up your card</a> to keep your account active.',
  },
  129: {
    code: 129,
    type: "info",
    closeable: true,
    title: "Create & Share Your Own Marketing KPI Report",
    body: '<a href="/company/subscription">Subscribe</a> to create and share your own dashboards.',
  },
};

/**
 * The order banners appear in, whatever triggered them: account-threatening states first, then the
 * invitations to subscribe, then the sources warning. Kept fixed so the bar does not reshuffle when
 * one banner comes or goes.
 */
export const BANNER_ORDER: readonly number[] = [126, 128, 120, 121, 122, 129, 125, 130];

/**
 * docs/product.md §4 "Global messages": which banners a company sees at `now` (pass it for expiries
 * to count; without it the company is judged as if nothing had expired).
 * - 126 canceled, 128 overdue (both only with a subscription);
 * - 120 a trial without subscription that is still running (an expired trial invites with 129 instead);
 * - 121 a subscription that is not canceled whose dashboards are all used (raising the plan helps;
 *   for a canceled one 126 already says to resubscribe);
 * - 122 a restored account without subscription;
 * - 129 no subscription, no running trial and no dashboard can be created;
 * - 125 while any source is invalid;
 * - 130 while sources' logins end within a week (`expiringSources`, given to admins only: they reconnect).
 */
export function globalMessagesFor(
  company: CompanyBillingFacts & { hasInvalidSource: boolean; expiringSources?: readonly ExpiringSource[] },
  now?: Date,
): GlobalMessage[] {
  const flags = companyFlags(company, now);
  const standing = billingStanding(company, now);
  const shown = new Set<number>();
  if (flags.isCanceled) shown.add(126);
  if (flags.isOverdue) shown.add(128);
  if (flags.isTrialWithoutSubscription) shown.add(120);
  if (flags.hasSubscription && !flags.isCanceled && standing.allowanceUsedUp) shown.add(121);
  if (!flags.hasSubscription && company.state === "restored") shown.add(122);
  if (!flags.hasSubscription && !standing.trialRunning && !flags.canCreateDashboard) shown.add(129);
  if (company.hasInvalidSource) shown.add(125);
  const expiring = company.expiringSources ?? [];
  if (expiring.length > 0) shown.add(130);
  return BANNER_ORDER.filter((code) => shown.has(code)).map((code) =>
    code === 130 ? { ...MESSAGE_CATALOGUE[130], body: expiringSourcesBody(expiring) } : MESSAGE_CATALOGUE[code],
  );
}

/** Groups messages by type for the top bar (docs/product.md §2), keeping the order types first appear in. */
export function groupMessagesByType(
  messages: GlobalMessage[],
): Array<{ type: GlobalMessageType; messages: GlobalMessage[] }> {
  const groups = new Map<GlobalMessageType, GlobalMessage[]>();
  for (const message of messages) {
    const list = groups.get(message.type) ?? [];
    list.push(message);
    groups.set(message.type, list);
  }
  return [...groups.entries()].map(([type, list]) => ({ type, messages: list }));
}
