import type { TWidget } from "@app/core";
import { afterAll, afterEach, expect, it } from "vitest";
import { buildDashboard, buildMember, buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import { describeEachDb, type TestClient, type TestEnv } from "../../../test/harness";
import { instance } from "../../features/widgets/test-helpers";
import { manualClock, systemClock } from "../../infra/clock";
import { unseal } from "../../infra/security";
import { META_SYSTEM_USER, META_USER, metaFake } from "../meta/fake";
import { metaAdsFake } from "./fake";

const fakes = fakesForFile(afterAll, () => {
  const meta = metaFake();
  return { meta, ads: metaAdsFake(meta.state) };
});
const meta = async () => (await fakes.current()).parts.meta;
const calls = async () => (await fakes.current()).calls;

const SHOP = "101000000000001";
const DAY = 86_400_000;
/** What Meta's fb_exchange_token answers as `expires_in` (about 60 days). */
const LONG_LIVED_S = 5_183_944;
const RANGE = { startDate: "2026-10-01", endDate: "2026-10-30", timezone: "UTC" };

type Clocked = TestEnv["ctx"] & { clock: TestEnv["ctx"]["clock"] };
const setClock = (env: TestEnv, at: number) => {
  (env.ctx as Clocked).clock = manualClock(new Date(at));
};

/** The login-expiry mails in the outbox that went to this address. */
const expiryMailsTo = (env: TestEnv, email: string) =>
  env.outbox().filter((mail) => mail.includes(email) && /^Subject: Reconnect /m.test(mail));

/** A dashboard whose one widget reads the source's Facebook Ads spend by day. */
async function dashboardOn(env: TestEnv, company: { id: string }, sourceId: string) {
  const board = await buildDashboard(env, { company, template: "website-overview" });
  const repoWidgets = JSON.parse(board.widgets) as TWidget[];
  const base = repoWidgets.find((widget) => widget.nature === "interactive") as Extract<
    TWidget,
    { nature: "interactive" }
  >;
  const widget: TWidget = {
    ...base,
    title: "Ad spend",
    instances: [
      instance(sourceId, "facebookAds.insights", { property: SHOP, dimension: "date", metrics: ["spend"] }),
    ] as unknown as typeof base.instances,
  };
  return buildDashboard(env, { company, name: `Ads ${sourceId}`, widgets: [widget] });
}

async function banners(client: TestClient): Promise<{ code: number; body: string }[]> {
  return (await client.pageData()).messages;
}

describeEachDb(
  "logins that expire (Meta's 60-day token)",
  (env) => {
    afterEach(() => {
      (env().ctx as Clocked).clock = systemClock;
    });

    it("keeps the login's end with the source, mails the admins once a week before, and a reconnect in place keeps the widgets", async () => {
      const owner = await buildOwner(env());
      const { email: adminEmail } = await buildMember(env(), { company: owner.company, role: "admin" });
      const { client: member, email: memberEmail } = await buildMember(env(), { company: owner.company });

      const connectedAt = Date.now();
      const { result } = await connectOAuth(owner.client, "facebookAds");
      expect(result).toMatchObject({ ok: true });
      const source = (await owner.client.api("GET", "/api/sources")).json().data[0];
      expect(source).toMatchObject({ id: result.sourceId, account: META_USER.name });
      const expiresAt = Date.parse(source.expiresAt);
      expect(expiresAt - connectedAt).toBeGreaterThanOrEqual(LONG_LIVED_S * 1000 - 60_000);
      expect(expiresAt - connectedAt).toBeLessThanOrEqual(LONG_LIVED_S * 1000 + 60_000);

      const board = await dashboardOn(env(), owner.company, result.sourceId);
      const shown = (await owner.client.api("GET", `/api/dashboards/${board.permalink}`)).json().data;
      const widgetId = shown.widgets[0].id as string;
      const data = await owner.client.api("POST", `/api/dashboards/${board.permalink}/widgets/${widgetId}/data`, RANGE);
      expect(data.statusCode).toBe(200);

      const expiry = env().services.get("sources").loginExpiry;
      // Eight days before: nothing yet, no banner.
      setClock(env(), expiresAt - 8 * DAY);
      await expiry.warnDue();
      expect(expiryMailsTo(env(), owner.email)).toEqual([]);
      expect((await banners(owner.client)).map((m) => m.code)).not.toContain(130);

      // Within the week: one mail to the admins (not to the member), in two passes at once and again later.
      setClock(env(), expiresAt - 7 * DAY + 3_600_000);
      await Promise.all([expiry.warnDue(), expiry.warnDue()]);
      await expiry.warnDue();
      setClock(env(), expiresAt - 2 * DAY);
      await expiry.warnDue();
      const mails = expiryMailsTo(env(), owner.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]).toContain(adminEmail);
      expect(mails[0]).not.toContain(memberEmail);
      expect(mails[0]).toContain(`Facebook Ads (${META_USER.name})`);
      expect(mails[0]).toContain("/company/sources");
      expect(expiryMailsTo(env(), memberEmail)).toEqual([]);

      // The admins' banner names the source; a member, who cannot reconnect, sees none.
      const banner = (await banners(owner.client)).find((m) => m.code === 130);
      expect(banner?.body).toContain(`Facebook Ads (${META_USER.name})`);
      expect(banner?.body).toContain('href="/company/sources"');
      expect((await banners(member)).map((m) => m.code)).not.toContain(130);

      // Reconnect in place: the same source, a new token and a new end, the banner gone, the widget answering.
      const before = (await calls()).length;
      const again = await connectOAuth(owner.client, "facebookAds", { source_id: result.sourceId });
      expect(again.result).toMatchObject({ ok: true, sourceId: result.sourceId });
      expect((await calls()).slice(before).some((call) => call.query.grant_type === "fb_exchange_token")).toBe(true);
      const list = (await owner.client.api("GET", "/api/sources"))
        .json()
        .data.filter((s: { name: string }) => s.name === "facebookAds");
      expect(list).toHaveLength(1);
      expect(list[0].id).toBe(result.sourceId);
      const renewed = Date.parse(list[0].expiresAt);
      expect(renewed).toBeGreaterThan(expiresAt + 50 * DAY);
      expect((await banners(owner.client)).map((m) => m.code)).not.toContain(130);
      const kept = (await owner.client.api("GET", `/api/dashboards/${board.permalink}`)).json().data;
      expect(kept.widgets.map((w: TWidget) => w.id)).toEqual([widgetId]);
      expect(kept.widgets[0].instances[0].sourceId).toBe(result.sourceId);
      const after = await owner.client.api(
        "POST",
        `/api/dashboards/${board.permalink}/widgets/${widgetId}/data`,
        RANGE,
      );
      expect(after.statusCode).toBe(200);

      // The new login is warned about in its turn, a week before its own end.
      setClock(env(), renewed - 6 * DAY);
      await expiry.warnDue();
      expect(expiryMailsTo(env(), owner.email)).toHaveLength(2);
    });

    it("a System User token is checked with Meta's debug_token, stored without an end, and never warned about", async () => {
      const owner = await buildOwner(env());
      const state = await meta();
      const paste = (token: string) => owner.client.api("POST", "/api/sources", { name: "facebookAds", token });

      const catalogue = (await owner.client.api("GET", "/api/configs/connectors")).json().data;
      expect(catalogue.find((c: { key: string }) => c.key === "facebookAds")).toMatchObject({
        authKind: "oauth2",
        tokenLogin: "System User token",
      });

      // Refused per field, in Meta's words: a personal token, one without ads_read, another app's, a dead one.
      // A personal token, from another company's Facebook login.
      const other = await buildOwner(env());
      const { result } = await connectOAuth(other.client, "facebookAds");
      const row = await env()
        .ctx.db.selectFrom("sources")
        .select("credentials")
        .where("id", "=", result.sourceId)
        .executeTakeFirstOrThrow();
      const personal = JSON.parse(unseal(env().ctx.config.appKey, row.credentials ?? "")).access_token as string;
      const refusals = [
        [personal, /not a System User token/],
        [state.systemUserToken({ scopes: ["business_management"] }), /lacks the permission ads_read/],
        [state.systemUserToken({ appId: "999" }), /another app \(999\)/],
        ["EAAnot-a-token", /refused these credentials/],
        ["", /The token field is required/],
      ] as const;
      for (const [token, message] of refusals) {
        const refused = await paste(token);
        expect(refused.statusCode, token).toBe(422);
        expect(refused.json().errors.token[0]).toMatch(message);
      }

      const created = await paste(state.systemUserToken());
      expect(created.statusCode, created.body).toBe(200);
      const source = created.json().data;
      expect(source).toMatchObject({ name: "facebookAds", account: META_SYSTEM_USER.name, expiresAt: null });
      const accounts = await owner.client.api("GET", `/api/sources/${source.id}/properties`);
      expect(accounts.statusCode).toBe(200);
      expect(accounts.json().data.map((a: { value: string }) => a.value)).toContain(SHOP);

      // Years on: no banner, no mail for it.
      setClock(env(), Date.now() + 400 * DAY);
      await env().services.get("sources").loginExpiry.warnDue();
      expect(expiryMailsTo(env(), owner.email)).toEqual([]);
      expect((await banners(owner.client)).map((m) => m.code)).not.toContain(130);

      // A 60-day System User token keeps its end like a login, so it is warned about.
      const dated = await paste(state.systemUserToken({ expiresInSeconds: 60 * 86_400 }));
      expect(dated.statusCode).toBe(200);
      expect(Date.parse(dated.json().data.expiresAt)).toBeGreaterThan(Date.now() + 59 * DAY);
    });

    it("copies the end of logins connected before it was kept next to the source", async () => {
      const owner = await buildOwner(env());
      const { result } = await connectOAuth(owner.client, "facebookAds");
      expect(result).toMatchObject({ ok: true });
      const expected = (await owner.client.api("GET", "/api/sources")).json().data[0].expiresAt;
      expect(expected).toEqual(expect.any(String));
      await env()
        .ctx.db.updateTable("sources")
        .set({ credentials_expire_at: null })
        .where("id", "=", result.sourceId)
        .execute();
      expect((await owner.client.api("GET", "/api/sources")).json().data[0].expiresAt).toBeNull();
      expect(await env().services.get("sources").loginExpiry.copyMissingExpiries()).toBeGreaterThanOrEqual(1);
      expect((await owner.client.api("GET", "/api/sources")).json().data[0].expiresAt).toBe(expected);
    });
  },
  fakes.env,
);
