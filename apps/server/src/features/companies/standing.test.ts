import { expect, it } from "vitest";
import { buildDashboard, buildOwner } from "../../../test/factories";
import { describeEachDb } from "../../../test/harness";
import { NO_SERVICE_CREATE, NO_SERVICE_VIEW } from "../dashboards/service";
import { companiesRepo } from "./repo";

const DAY = 86_400_000;
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

/**
 * docs/product.md §4 and docs/decisions.md ("Company service, banners and prices"): a company whose
 * trial ended, or whose canceled subscription's period is over, loses dashboard creation and its shared
 * dashboards answer 402, while its members still read their dashboards and Mission Control stays.
 */
describeEachDb("company service by state and expiry", (env) => {
  const cases = [
    {
      name: "a running trial",
      state: "trial",
      subscription: false,
      expiresAt: iso(5 * DAY),
      served: true,
      banner: 120,
    },
    { name: "an expired trial", state: "trial", subscription: false, expiresAt: iso(-DAY), served: false, banner: 129 },
    {
      name: "a canceled subscription within its period",
      state: "canceled",
      subscription: true,
      expiresAt: iso(10 * DAY),
      served: true,
      banner: 126,
    },
    {
      name: "a canceled subscription past its period",
      state: "canceled",
      subscription: true,
      expiresAt: iso(-DAY),
      served: false,
      banner: 126,
    },
    {
      name: "an overdue subscription past its date",
      state: "overdue",
      subscription: true,
      expiresAt: iso(-DAY),
      served: true,
      banner: 128,
    },
    {
      name: "an active subscription",
      state: "active",
      subscription: true,
      expiresAt: iso(20 * DAY),
      served: true,
      banner: null,
    },
  ] as const;

  for (const c of cases) {
    it(`${c.name}: ${c.served ? "shares and creates" : "402 for viewers, no new dashboards, members still read"}`, async () => {
      const { client: owner, company, user } = await buildOwner(env());
      const dashboard = await buildDashboard(env(), { company, user, name: "Client report" });
      await companiesRepo(env().ctx.db).update(company.id, {
        state: c.state,
        expires_at: c.expiresAt,
        subscription_id: c.subscription ? "sub_test" : null,
        subscription_interval: c.subscription ? 1 : null,
      });

      const guest = env().client();
      const shared = await guest.raw("GET", `/api/dashboards/${dashboard.permalink}`);
      expect(shared.statusCode, shared.body).toBe(c.served ? 200 : 402);
      if (!c.served) expect(shared.json().message).toBe(NO_SERVICE_VIEW);
      // The public widget data goes through the same door.
      const range = { startDate: "2026-10-01", endDate: "2026-10-31", timezone: "UTC" };
      const widgetData = await guest.api("POST", `/api/dashboards/${dashboard.permalink}/widgets/none/data`, range);
      expect(widgetData.statusCode).toBe(c.served ? 404 : 402);

      // Members keep reading their own dashboards.
      expect((await owner.api("GET", `/api/dashboards/${dashboard.permalink}`)).statusCode).toBe(200);

      const created = await owner.api("POST", "/api/dashboards", { name: "Another" });
      if (c.served) expect(created.statusCode, created.body).toBe(200);
      else {
        expect(created.statusCode).toBe(422);
        expect(created.json().errors.general).toEqual([NO_SERVICE_CREATE]);
      }

      const flags = (await owner.api("GET", "/api/company")).json().data;
      expect(flags.canCreateDashboard).toBe(c.served);
      const pageData = (await owner.api("GET", "/api/page-data")).json();
      const codes = pageData.messages.map((m: { code: number }) => m.code);
      if (c.banner === null) expect(codes).toEqual([]);
      else expect(codes[0]).toBe(c.banner);

      // Mission Control is never gated.
      expect((await owner.api("GET", "/api/campaigns")).statusCode).toBe(200);
    });
  }
});
