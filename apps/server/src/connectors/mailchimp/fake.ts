/**
 * Mailchimp as a part of the fakes app (./app.ts): the OAuth app at login.mailchimp.com (authorize,
 * token, metadata) under `/mailchimp-login`, and the Marketing API 3.0 of the account's data centre
 * under `/mailchimp` (Mailchimp's `/3.0/lists` would be too generic to share the origin's root). Shapes
 * follow https://mailchimp.com/developer/marketing/guides/access-user-data-oauth-2/, the Marketing
 * API reference for lists, campaigns, reports and list activity (docs/connectors.md) and https://mailchimp.com/developer/marketing/docs/errors/:
 * - the token answer is `{access_token, expires_in: 0, scope: null}` (the token never expires);
 *   a used code is 400 `invalid_grant`, a wrong client 401 `invalid_client`;
 * - `/oauth2/metadata` wants `Authorization: OAuth <token>` and names the data centre;
 * - API failures are problem details `{type, title, status, detail, instance}`: 401 "API Key Invalid"
 *   for a wrong or revoked token, 404 "Resource Not Found" for an unknown audience, 400 "Invalid
 *   Resource" for a count over 1000 or a time that is not ISO 8601.
 * Pages hold at most `pageSize` items whatever `count` asks (small, so offset paging is exercised).
 */

import { randomUUID } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FakeCall, FakeEntry, FakeFault, FakePart } from "../../../test/fakes/app";
import { answerFault, pathOf } from "../../../test/fakes/kit";

export const MAILCHIMP_LOGIN_PREFIX = "/mailchimp-login";
export const MAILCHIMP_API_PREFIX = "/mailchimp";
export const MAILCHIMP_DC = "us6";
export const MAILCHIMP_ACCOUNT = "Acme Newsletters";

export interface FakeMailchimp {
  clientId: string;
  clientSecret: string;
  deny: boolean;
  /** Tokens Mailchimp no longer accepts (the user removed the app). */
  revoked: Set<string>;
  failNext: FakeFault[];
  calls: FakeCall[];
  pageSize: number;
  tokens: string[];
  /** The account's sent campaigns, oldest first (MAILCHIMP_CAMPAIGNS unless a test puts others). */
  campaigns: FakeMailchimpCampaign[];
}

export const MAILCHIMP_AUDIENCES = [
  { id: "a1b2c3d4e5", name: "Acme Newsletter" },
  { id: "f6e5d4c3b2", name: "Acme Shop Customers" },
  { id: "0a9b8c7d6e", name: "Events" },
] as const;

export interface FakeMailchimpCampaign {
  id: string;
  title: string;
  listId: string;
  sendTime: string;
  emailsSent: number;
  hardBounces: number;
  softBounces: number;
  syntaxErrors: number;
  opensTotal: number;
  uniqueOpens: number;
  clicksTotal: number;
  uniqueSubscriberClicks: number;
  unsubscribed: number;
}

/** A sent campaign of the fake, its numbers following from its index and emails sent. */
export const fakeMailchimpCampaign = (
  index: number,
  title: string,
  listId: string,
  sendTime: string,
  emailsSent: number,
): FakeMailchimpCampaign => ({
  id: `c${String(index).padStart(9, "0")}`,
  title,
  listId,
  sendTime,
  emailsSent,
  hardBounces: 3 + index,
  softBounces: 5 + (index % 3),
  syntaxErrors: index % 2,
  opensTotal: Math.round(emailsSent * 0.6) + index,
  uniqueOpens: Math.round(emailsSent * 0.35) + index,
  clicksTotal: Math.round(emailsSent * 0.09) + index,
  uniqueSubscriberClicks: Math.round(emailsSent * 0.05) + index,
  unsubscribed: 2 + index,
});

/** Sent campaigns, oldest first; the fifth is sent at 23:30 UTC on Oct 31 (Nov 1 in Paris). */
export const MAILCHIMP_CAMPAIGNS: readonly FakeMailchimpCampaign[] = [
  fakeMailchimpCampaign(1, "September news", "a1b2c3d4e5", "2026-09-15T09:00:00+00:00", 4000),
  fakeMailchimpCampaign(2, "October news", "a1b2c3d4e5", "2026-10-06T09:00:00+00:00", 4100),
  fakeMailchimpCampaign(3, "Autumn sale", "f6e5d4c3b2", "2026-10-06T15:30:00+00:00", 2500),
  fakeMailchimpCampaign(4, "Sale – last call", "f6e5d4c3b2", "2026-10-20T08:00:00+00:00", 2400),
  fakeMailchimpCampaign(5, "Halloween", "a1b2c3d4e5", "2026-10-31T23:30:00+00:00", 4200),
  fakeMailchimpCampaign(6, "November news", "a1b2c3d4e5", "2026-11-03T09:00:00+00:00", 4300),
];

/** One audience's activity on one day: numbers a test can sum. */
export function fakeMailchimpActivity(listId: string, day: string) {
  const n = Number(day.slice(8, 10)) + (listId.charCodeAt(0) % 3);
  const mailing = n % 7 === 0;
  return {
    day,
    emails_sent: mailing ? 1200 + n : 0,
    unique_opens: mailing ? 400 + n : n % 4,
    recipient_clicks: mailing ? 60 + n : n % 2,
    hard_bounce: mailing ? 2 : 0,
    soft_bounce: mailing ? 3 : 0,
    subs: 5 + (n % 4),
    unsubs: n % 3,
    other_adds: n % 2,
    other_removes: n % 5 === 0 ? 1 : 0,
  };
}

const DAY_MS = 86_400_000;

export function mailchimpFake(): FakePart<FakeMailchimp> {
  const codes = new Map<string, string>();
  const live = new Set<string>();
  let counter = 0;
  const state: FakeMailchimp = {
    clientId: "123456789012",
    clientSecret: "fake-mailchimp-client-secret",
    deny: false,
    revoked: new Set(),
    failNext: [],
    calls: [],
    pageSize: 2,
    tokens: [],
    campaigns: [...MAILCHIMP_CAMPAIGNS],
  };

  const problem = (reply: FastifyReply, status: number, title: string, detail: string) =>
    reply.code(status).type("application/problem+json; charset=utf-8").send({
      type: "https://mailchimp.com/developer/marketing/docs/errors/",
      title,
      status,
      detail,
      instance: randomUUID(),
    });

  /** The token of an API request (`Bearer` or `OAuth`), or the 401 already sent. */
  const requireToken = (request: FastifyRequest, reply: FastifyReply): string | null => {
    const header = String(request.headers.authorization ?? "");
    const token = /^(?:Bearer|OAuth) (.+)$/.exec(header)?.[1] ?? "";
    if (!token) {
      void problem(reply, 401, "API Key Missing", "Your request did not include an API key.");
      return null;
    }
    if (!live.has(token) || state.revoked.has(token)) {
      void problem(
        reply,
        401,
        "API Key Invalid",
        "Your API key may be invalid, or you've attempted to access the wrong datacenter.",
      );
      return null;
    }
    return token;
  };

  const fault = (request: FastifyRequest, reply: FastifyReply) => {
    return answerFault(state.failNext, reply, pathOf(request));
  };

  /** `count` and `offset` as Mailchimp reads them (count 10 by default, at most 1000), or the 400 sent. */
  const paging = (request: FastifyRequest, reply: FastifyReply) => {
    const query = request.query as Record<string, string | undefined>;
    const count = Number(query.count ?? 10);
    const offset = Number(query.offset ?? 0);
    if (!Number.isInteger(count) || count < 1 || count > 1000 || !Number.isInteger(offset) || offset < 0) {
      void problem(
        reply,
        400,
        "Invalid Resource",
        "The resource submitted could not be validated. For field-specific details, see the 'errors' array.",
      );
      return null;
    }
    return { offset, take: Math.min(count, state.pageSize) };
  };

  const login = MAILCHIMP_LOGIN_PREFIX;
  const api = `${MAILCHIMP_API_PREFIX}/3.0`;

  return {
    state,
    env: (origin) => ({
      MAILCHIMP_CLIENT_ID: state.clientId,
      MAILCHIMP_CLIENT_SECRET: state.clientSecret,
      MAILCHIMP_LOGIN_URL: `${origin}${login}`,
      MAILCHIMP_API_URL: `${origin}${MAILCHIMP_API_PREFIX}`,
    }),
    register(app, shared) {
      state.calls = shared.calls;

      app.get(`${login}/oauth2/authorize`, async (request, reply) => {
        const query = request.query as Record<string, string | undefined>;
        if (query.client_id !== state.clientId || query.response_type !== "code") {
          return reply.code(400).type("text/html").send("<p>Invalid client_id or response_type.</p>");
        }
        let redirect: URL;
        try {
          redirect = new URL(query.redirect_uri ?? "");
        } catch {
          return reply.code(400).type("text/html").send("<p>Invalid redirect_uri.</p>");
        }
        redirect.searchParams.set("state", query.state ?? "");
        if (state.deny) {
          state.deny = false;
          redirect.searchParams.set("error", "access_denied");
        } else {
          const code = `mcfakecode${++counter}`;
          codes.set(code, query.redirect_uri ?? "");
          redirect.searchParams.set("code", code);
        }
        return reply.redirect(redirect.toString(), 302);
      });

      app.post(`${login}/oauth2/token`, async (request, reply) => {
        const form = (request.body ?? {}) as Record<string, string | undefined>;
        if (form.client_id !== state.clientId || form.client_secret !== state.clientSecret) {
          return reply.code(401).send({ error: "invalid_client", error_description: "Invalid client credentials" });
        }
        const redirectUri = codes.get(form.code ?? "");
        codes.delete(form.code ?? "");
        if (
          form.grant_type !== "authorization_code" ||
          redirectUri === undefined ||
          redirectUri !== form.redirect_uri
        ) {
          return reply.code(400).send({ error: "invalid_grant", error_description: "Invalid authorization code" });
        }
        const token = `mcfaketoken${++counter}${"0".repeat(20)}`;
        live.add(token);
        state.tokens.push(token);
        return { access_token: token, expires_in: 0, scope: null };
      });

      app.get(`${login}/oauth2/metadata`, async (request, reply) => {
        const token = /^OAuth (.+)$/.exec(String(request.headers.authorization ?? ""))?.[1] ?? "";
        if (!live.has(token) || state.revoked.has(token)) {
          return reply.code(401).send({ error: "invalid_token", error_description: "Invalid token" });
        }
        return {
          dc: MAILCHIMP_DC,
          role: "owner",
          accountname: MAILCHIMP_ACCOUNT,
          user_id: 40_000_001,
          login: {
            email: "ada@acme.test",
            avatar: null,
            login_id: 40_000_001,
            login_name: "ada",
            login_email: "ada@acme.test",
          },
          login_url: "https://login.mailchimp.com",
          api_endpoint: `https://${MAILCHIMP_DC}.api.mailchimp.com`,
        };
      });

      app.get(`${api}/lists`, async (request, reply) => {
        const faulted = fault(request, reply);
        if (faulted) return faulted;
        if (!requireToken(request, reply)) return reply;
        const page = paging(request, reply);
        if (!page) return reply;
        return {
          lists: MAILCHIMP_AUDIENCES.slice(page.offset, page.offset + page.take).map((list) => ({
            id: list.id,
            name: list.name,
          })),
          total_items: MAILCHIMP_AUDIENCES.length,
        };
      });

      app.get(`${api}/campaigns`, async (request, reply) => {
        const faulted = fault(request, reply);
        if (faulted) return faulted;
        if (!requireToken(request, reply)) return reply;
        const page = paging(request, reply);
        if (!page) return reply;
        const query = request.query as Record<string, string | undefined>;
        let found = [...state.campaigns];
        if (query.list_id) found = found.filter((entry) => entry.listId === query.list_id);
        if (query.sort_field === "send_time" && query.sort_dir === "DESC") found.reverse();
        return {
          campaigns: found.slice(page.offset, page.offset + page.take).map((entry) => ({
            id: entry.id,
            status: "sent",
            send_time: entry.sendTime,
            settings: { title: entry.title, subject_line: `${entry.title}!` },
          })),
          total_items: found.length,
        };
      });

      app.get(`${api}/reports`, async (request, reply) => {
        const faulted = fault(request, reply);
        if (faulted) return faulted;
        if (!requireToken(request, reply)) return reply;
        const page = paging(request, reply);
        if (!page) return reply;
        const query = request.query as Record<string, string | undefined>;
        const since = query.since_send_time ? Date.parse(query.since_send_time) : Number.NEGATIVE_INFINITY;
        const before = query.before_send_time ? Date.parse(query.before_send_time) : Number.POSITIVE_INFINITY;
        if (Number.isNaN(since) || Number.isNaN(before)) {
          return problem(reply, 400, "Invalid Resource", "Please provide a valid ISO 8601 time.");
        }
        const found = state.campaigns.filter((entry) => {
          const at = Date.parse(entry.sendTime);
          return at >= since && at < before;
        });
        return {
          reports: found.slice(page.offset, page.offset + page.take).map((entry) => {
            const delivered = entry.emailsSent - entry.hardBounces - entry.softBounces - entry.syntaxErrors;
            return {
              id: entry.id,
              campaign_title: entry.title,
              type: "regular",
              list_id: entry.listId,
              list_name: MAILCHIMP_AUDIENCES.find((list) => list.id === entry.listId)?.name ?? "",
              subject_line: `${entry.title}!`,
              emails_sent: entry.emailsSent,
              abuse_reports: 0,
              unsubscribed: entry.unsubscribed,
              send_time: entry.sendTime,
              bounces: {
                hard_bounces: entry.hardBounces,
                soft_bounces: entry.softBounces,
                syntax_errors: entry.syntaxErrors,
              },
              opens: {
                opens_total: entry.opensTotal,
                unique_opens: entry.uniqueOpens,
                open_rate: entry.uniqueOpens / delivered,
                last_open: entry.sendTime,
              },
              clicks: {
                clicks_total: entry.clicksTotal,
                unique_clicks: entry.uniqueSubscriberClicks + 7,
                unique_subscriber_clicks: entry.uniqueSubscriberClicks,
                click_rate: entry.uniqueSubscriberClicks / delivered,
                last_click: entry.sendTime,
              },
            };
          }),
          total_items: found.length,
        };
      });

      app.get(`${api}/lists/:id/activity`, async (request, reply) => {
        const faulted = fault(request, reply);
        if (faulted) return faulted;
        if (!requireToken(request, reply)) return reply;
        const id = (request.params as { id: string }).id;
        if (!MAILCHIMP_AUDIENCES.some((list) => list.id === id)) {
          return problem(reply, 404, "Resource Not Found", "The requested resource could not be found.");
        }
        const query = request.query as Record<string, string | undefined>;
        const count = Number(query.count ?? 10);
        if (!Number.isInteger(count) || count < 1 || count > 1000) {
          return problem(reply, 400, "Invalid Resource", "The count parameter must be between 1 and 1000.");
        }
        // The last 180 days, newest first (today included).
        const today = new Date().toISOString().slice(0, 10);
        const days = Array.from({ length: 180 }, (_, back) =>
          new Date(Date.parse(`${today}T00:00:00Z`) - back * DAY_MS).toISOString().slice(0, 10),
        );
        return {
          activity: days.slice(0, count).map((day) => fakeMailchimpActivity(id, day)),
          list_id: id,
          total_items: 180,
        };
      });
    },
  };
}

/** This fake as a part of the fakes app (test/fakes/all.ts finds it in this folder). */
export const fakeEntry: FakeEntry = {
  name: "mailchimp",
  build: () => mailchimpFake(),
};
