import { z } from "zod";
import { ZCompanyServices } from "./company";
import { ZSource } from "./sources";

/**
 * Realtime to browsers (docs/product.md §4 "Realtime", §7): Socket.IO at `/socket.io`, private channels authorised
 * Pusher-style at `/broadcasting/auth` (an HMAC over socket id and channel that the socket presents
 * when it subscribes).
 */
export const REALTIME_PATH = "/socket.io";

/** The private channel of a company: every signed-in member may join their own company's. */
export function companyChannel(companyId: string): string {
  return `company.${companyId}`;
}

/**
 * The prefix Laravel Echo and Pusher clients put before a private channel's name: `echo.private("company.{id}")`
 * asks for `private-company.{id}`. Both spellings name the same channel, with the same rule.
 */
export const PRIVATE_CHANNEL_PREFIX = "private-";

/** The company id of a `company.{id}` (or `private-company.{id}`) channel name, or null for any other name. */
export function companyOfChannel(channel: string): string | null {
  const match = /^(?:private-)?company\.([A-Za-z0-9_-]{1,64})$/.exec(channel);
  return match ? match[1] : null;
}

/** Every name of a channel: the name itself and, for a company channel, its `private-` spelling. */
export function channelSpellings(channel: string): string[] {
  const canonical = channel.startsWith(PRIVATE_CHANNEL_PREFIX) ? channel.slice(PRIVATE_CHANNEL_PREFIX.length) : channel;
  return companyOfChannel(canonical) === null ? [channel] : [canonical, PRIVATE_CHANNEL_PREFIX + canonical];
}

/** Events on a company channel (docs/product.md §4). Later features add theirs here. */
export const REALTIME_EVENTS = {
  sourceUpdated: "CompanySourceUpdated",
  subscriptionUpdated: "CompanySubscriptionUpdated",
  /** Mission Control alerts opened or resolved (ZCampaignAlertsUpdated). */
  campaignAlertsUpdated: "CampaignAlertsUpdated",
  /** Alerts on widget metrics opened or resolved, or their rules changed (ZWidgetAlertsUpdated). */
  widgetAlertsUpdated: "WidgetAlertsUpdated",
} as const;

/** A source was connected, changed, reconnected, given a file or deleted: the company's sources now, and which one. */
export const ZCompanySourceUpdated = z.object({ sources: z.array(ZSource), id: z.string() });
export type TCompanySourceUpdated = z.infer<typeof ZCompanySourceUpdated>;

/** The company's subscription state or services changed. */
export const ZCompanySubscriptionUpdated = z.object({ state: z.string(), services: ZCompanyServices });
export type TCompanySubscriptionUpdated = z.infer<typeof ZCompanySubscriptionUpdated>;

/** What the server emits for an event on a channel the socket joined: `socket.on(event, (message) => …)`. */
export interface RealtimeMessage<T = unknown> {
  channel: string;
  data: T;
}

/** Socket.IO messages the client sends (with an acknowledgement callback). */
export const REALTIME_CLIENT = {
  /** `(channel, auth, ack)`: join a private channel with the signature from /broadcasting/auth. */
  subscribe: "subscribe",
  /** `(channel)`: leave it. */
  unsubscribe: "unsubscribe",
  /** `({auth, user_data}, ack)`: identify the user with the signature from /broadcasting/user-auth. */
  signin: "signin",
} as const;

/** The acknowledgement of subscribe and signin. */
export type TRealtimeAck = { ok: true } | { ok: false; error: string };

const socketId = z.string().trim().min(1, "The socket id field is required.").max(100);

/** POST /broadcasting/auth (form or JSON, as Laravel Echo / Pusher clients send it). */
export const ZBroadcastAuth = z.object({
  socket_id: socketId,
  channel_name: z.string().trim().min(1, "The channel name field is required.").max(200),
});
export type TBroadcastAuth = z.infer<typeof ZBroadcastAuth>;
export const ZBroadcastAuthResponse = z.object({ auth: z.string() });

/** POST /broadcasting/user-auth. */
export const ZBroadcastUserAuth = z.object({ socket_id: socketId });
export const ZBroadcastUserAuthResponse = z.object({ auth: z.string(), user_data: z.string() });
