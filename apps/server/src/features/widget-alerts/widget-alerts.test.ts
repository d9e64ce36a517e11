import {
  formatDisplayDate,
  REALTIME_EVENTS,
  shiftDay,
  type TWidget,
  type TWidgetAlert,
  todayInTimezone,
  WIDGET_ALERT_MESSAGES,
} from "@app/core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildDashboard, buildMember, buildOwner, type CompanyOverrides, type Owner } from "../../../test/factories";
import { describeEachDb, type TestClient, type TestEnv } from "../../../test/harness";
import { type ReceivedMail, startSmtpSink } from "../../../test/smtp-sink";
import { until } from "../../../test/wait";
import { demoConnector } from "../../connectors/demo";
import { manualClock } from "../../infra/clock";
import type { AppEvents } from "../../infra/events";
import { EVALUATE_JOB, evaluationSlot, SCHEDULE_EVALUATIONS_JOB } from "./jobs";

let sink: Awaited<ReturnType<typeof startSmtpSink>>;

/** Mails the sink received for one dashboard (subjects end with its name). */
const mailsFor = (dashboardName: string): ReceivedMail[] =>
  sink.received.filter((mail) => mail.parsed.subject?.endsWith(` – ${dashboardName}`));

interface Board {
  owner: Owner;
  name: string;
  dashboardId: string;
  permalink: string;
  /** "Key figures": the totals of six Demo metrics. */
  figures: TWidget;
  /** "Sessions and users": the same by day. */
  daily: TWidget;
}

let boards = 0;
async function board(env: TestEnv, company: CompanyOverrides = {}): Promise<Board> {
  boards += 1;
  const owner = await buildOwner(env, { company });
  const name = `Alerted board ${boards}`;
  const row = await buildDashboard(env, { company: owner.company, name, template: "website-overview" });
  const shown = (await owner.client.api("GET", `/api/dashboards/${row.permalink}`)).json().data;
  const byTitle = (title: string) => shown.widgets.find((widget: TWidget) => widget.title === title) as TWidget;
  return {
    owner,
    name,
    dashboardId: row.id,
    permalink: row.permalink,
    figures: byTitle("Key figures"),
    daily: byTitle("Sessions and users"),
  };
}

const alertsUrl = (b: Board, widget: TWidget) => `/api/dashboards/${b.dashboardId}/widgets/${widget.id}/alerts`;

async function createAlert(client: TestClient, url: string, body: Record<string, unknown>): Promise<TWidgetAlert> {
  const response = await client.api("POST", url, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

const sessionsAbove = (value: number, extra: Record<string, unknown> = {}) => ({
  metric: "a.sessions",
  condition: "above",
  value,
  recipients: "ceo@client.example, cmo@client.example",
  ...extra,
});

describeEachDb(
  "alerts on any widget metric",
  (env) => {
    beforeAll(async () => {
      await env().ctx.jobs.start();
      // The hourly pass is these tests' to run (`evaluate`, the job enqueued by hand): its schedule
      // follows the real clock, and an hour crossed mid-test would evaluate a board between a test's
      // own passes (a rule resolved one pass early).
      await env()
        .ctx.db.updateTable("job_schedules")
        .set({ next_run_at: "9999-01-01T00:00:00.000Z" })
        .where("name", "=", SCHEDULE_EVALUATIONS_JOB)
        .execute();
    });
    afterAll(async () => {
      await sink.close();
    });

    const broadcasts: AppEvents["realtime.broadcast"][] = [];
    beforeAll(() => {
      env().ctx.events.subscribe("realtime.broadcast", (event) => {
        broadcasts.push(event);
      });
    });
    /** What the company's channel was told about widget alerts. */
    const pushedTo = (b: Board) =>
      broadcasts.filter(
        (event) =>
          event.event === REALTIME_EVENTS.widgetAlertsUpdated && event.channel === `company.${b.owner.company.id}`,
      );
    const openUrl = (b: Board) => `/api/dashboards/${b.dashboardId}/widget-alerts/open`;

    const evaluate = (b: Board) => env().services.get("widgetAlerts").evaluateCompany(b.owner.company.id);
    /** The metric moving across the threshold, without touching the rule's identity (its state is kept). */
    const setThreshold = (id: string, value: number) =>
      env().ctx.db.updateTable("widget_alerts").set({ value }).where("id", "=", id).execute();
    const listed = async (b: Board, widget: TWidget): Promise<TWidgetAlert[]> =>
      (await b.owner.client.api("GET", alertsUrl(b, widget))).json().data;

    it("creates, lists, changes and deletes a widget's alerts; refuses each bad field with its message", async () => {
      const b = await board(env());
      const created = await createAlert(b.owner.client, alertsUrl(b, b.figures), sessionsAbove(1500));
      expect(created).toMatchObject({
        dashboard_id: b.dashboardId,
        widget_id: b.figures.id,
        metric: "a.sessions",
        condition: "above",
        value: 1500,
        direction: "either",
        recipients: ["ceo@client.example", "cmo@client.example"],
        paused: false,
        snoozed: false,
        state: null,
      });
      expect(await listed(b, b.figures)).toEqual([created]);
      expect(await listed(b, b.daily)).toEqual([]);

      const changed = await b.owner.client.api("PUT", `/api/widget-alerts/${created.id}`, {
        ...sessionsAbove(0),
        condition: "changeBy",
        value: 20,
        direction: "down",
        paused: true,
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json().data).toMatchObject({ condition: "changeBy", value: 20, direction: "down", paused: true });

      const refusals: [Record<string, unknown>, Record<string, string[]>][] = [
        [{ ...sessionsAbove(1), metric: "" }, { metric: [WIDGET_ALERT_MESSAGES.metricRequired] }],
        [{ ...sessionsAbove(1), metric: "a.nonsense" }, { metric: [WIDGET_ALERT_MESSAGES.metricUnknown] }],
        [{ ...sessionsAbove(1), condition: "equals" }, { condition: [WIDGET_ALERT_MESSAGES.condition] }],
        [{ ...sessionsAbove(1), value: null }, { value: [WIDGET_ALERT_MESSAGES.valueRequired] }],
        [{ ...sessionsAbove(1), condition: "changeBy", value: -5 }, { value: [WIDGET_ALERT_MESSAGES.percentMin] }],
        [
          { ...sessionsAbove(1), recipients: "a@x.io, b@x.io, c@x.io, d@x.io, e@x.io, f@x.io" },
          { recipients: ["You can add at most 5 recipients."] },
        ],
        [
          { ...sessionsAbove(1), recipients: "not-an-address" },
          { recipients: ["'not-an-address' is not a valid email address."] },
        ],
      ];
      for (const [body, errors] of refusals) {
        const response = await b.owner.client.api("POST", alertsUrl(b, b.figures), body);
        expect(response.statusCode, JSON.stringify(body)).toBe(422);
        expect(response.json().errors).toEqual(errors);
      }

      const removed = await b.owner.client.api("DELETE", `/api/widget-alerts/${created.id}`);
      expect(removed.statusCode).toBe(204);
      expect(await listed(b, b.figures)).toEqual([]);
    });

    it("members manage alerts as they edit dashboards; another company's dashboard and alerts are not found", async () => {
      const b = await board(env());
      const member = await buildMember(env(), { company: b.owner.company });
      const own = await createAlert(member.client, alertsUrl(b, b.figures), sessionsAbove(1));
      expect((await member.client.api("GET", alertsUrl(b, b.figures))).json().data).toHaveLength(1);

      const stranger = await board(env());
      const foreignUrl = alertsUrl(b, b.figures);
      for (const [method, url, body] of [
        ["GET", foreignUrl, undefined],
        ["POST", foreignUrl, sessionsAbove(1)],
        ["PUT", `/api/widget-alerts/${own.id}`, sessionsAbove(1)],
        ["DELETE", `/api/widget-alerts/${own.id}`, undefined],
        ["POST", `/api/widget-alerts/${own.id}/snooze`, {}],
        ["DELETE", `/api/widget-alerts/${own.id}/snooze`, undefined],
      ] as const) {
        const response = await stranger.owner.client.api(method, url, body);
        expect(response.statusCode, `${method} ${url}`).toBe(404);
      }
      const missingWidget = await b.owner.client.api("GET", `/api/dashboards/${b.dashboardId}/widgets/nope/alerts`);
      expect(missingWidget.statusCode).toBe(404);
      expect(missingWidget.json().message).toBe(WIDGET_ALERT_MESSAGES.widgetNotFound);
      // The stranger's attempts changed nothing.
      expect(await listed(b, b.figures)).toHaveLength(1);
    });

    it("the job opens an alert and mails it once, resolves it after two passing passes, and mails a new opening", async () => {
      const b = await board(env());
      const alert = await createAlert(b.owner.client, alertsUrl(b, b.figures), sessionsAbove(1));
      // Through the job, as the hourly pass runs it.
      await env().ctx.jobs.enqueue(EVALUATE_JOB, { companyId: b.owner.company.id, slot: evaluationSlot(new Date()) });
      await until(() => mailsFor(b.name).length === 1, 60_000, 100);
      const [mail] = mailsFor(b.name);
      expect(mail.to.sort()).toEqual(["ceo@client.example", "cmo@client.example"]);
      expect(mail.parsed.subject).toMatch(/^Alert: Sessions rose to [\d,]+, above 1 – Alerted board \d+$/);
      expect(mail.parsed.text).toContain(
        `Open the live dashboard: ${env().ctx.config.appUrl}/dashboards/${b.permalink}`,
      );
      expect(mail.parsed.text).toContain("Rule: Sessions above 1");
      expect(String(mail.parsed.html)).toContain("Key figures");
      let [state] = await listed(b, b.figures);
      expect(state).toMatchObject({ state: "open", resolved_at: null });
      expect(state.last_message).toMatch(/^Sessions rose to [\d,]+, above 1$/);

      // Still failing: still open, no second mail.
      expect(await evaluate(b)).toMatchObject({ evaluated: 1, opened: 0, mailed: 0 });
      await setThreshold(alert.id, 1e12);
      expect(await evaluate(b)).toMatchObject({ resolved: 0, mailed: 0 });
      [state] = await listed(b, b.figures);
      expect(state.state).toBe("open");
      expect(await evaluate(b)).toMatchObject({ resolved: 1, mailed: 0 });
      [state] = await listed(b, b.figures);
      expect(state).toMatchObject({ state: "resolved" });
      expect(state.last_message).toMatch(/^Sessions is [\d,]+, not above 1,000,000,000,000$/);
      expect(mailsFor(b.name)).toHaveLength(1);

      // Failing again is a new opening, and it owes its own mail.
      await setThreshold(alert.id, 1);
      expect(await evaluate(b)).toMatchObject({ opened: 1, mailed: 1 });
      await until(() => mailsFor(b.name).length === 2, 30_000, 100);
    }, 90_000);

    it("paused alerts are not evaluated; snoozed ones open without mail until the snooze ends", async () => {
      const b = await board(env());
      const paused = await createAlert(b.owner.client, alertsUrl(b, b.figures), sessionsAbove(1, { paused: true }));
      expect(await evaluate(b)).toMatchObject({ evaluated: 0, mailed: 0 });
      expect((await listed(b, b.figures))[0]).toMatchObject({ id: paused.id, state: null, last_evaluated_at: null });

      const snoozedAlert = await createAlert(b.owner.client, alertsUrl(b, b.figures), sessionsAbove(2));
      const snoozed = await b.owner.client.api("POST", `/api/widget-alerts/${snoozedAlert.id}/snooze`, {});
      expect(snoozed.statusCode, snoozed.body).toBe(200);
      const until7 = Date.parse(snoozed.json().data.snoozed_until) - Date.now();
      expect(snoozed.json().data.snoozed).toBe(true);
      expect(until7).toBeGreaterThan(6.9 * 24 * 3600_000);
      expect(await evaluate(b)).toMatchObject({ evaluated: 1, opened: 1, mailed: 0 });
      expect((await listed(b, b.figures)).find((each) => each.id === snoozedAlert.id)?.state).toBe("open");
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(mailsFor(b.name)).toEqual([]);

      // Un-snoozed while still failing: the opening it never mailed goes out at the next pass, once.
      const unsnoozed = await b.owner.client.api("DELETE", `/api/widget-alerts/${snoozedAlert.id}/snooze`);
      expect(unsnoozed.json().data.snoozed).toBe(false);
      expect(await evaluate(b)).toMatchObject({ mailed: 1 });
      expect(await evaluate(b)).toMatchObject({ mailed: 0 });
      await until(() => mailsFor(b.name).length === 1, 30_000, 100);
    }, 90_000);

    it("an anomaly rule learns the Demo series by day and judges the latest complete day", async () => {
      const b = await board(env());
      await createAlert(b.owner.client, alertsUrl(b, b.daily), {
        metric: "a.sessions",
        condition: "anomaly",
        direction: "down",
        recipients: "ops@client.example",
      });
      expect(await evaluate(b)).toMatchObject({ evaluated: 1 });
      const [state] = await listed(b, b.daily);
      expect(state.last_message).toMatch(
        /^Sessions (was|fell to) [\d,]+ on \w{3} \d{2}, \d{4}, (within|outside) the expected [\d,]+–[\d,]+$/,
      );
    }, 60_000);

    it("an anomaly rule on a connector whose last days arrive late judges the last day it has finished", async () => {
      // The Demo connector lent a lag (as Ahrefs' 2 days) for this test: the rule must read the connector's
      // `lagDays` (lagDaysOf), not how long it revises (`settlingDays`, none here), nor judge yesterday.
      const b = await board(env());
      await createAlert(b.owner.client, alertsUrl(b, b.daily), {
        metric: "a.sessions",
        condition: "anomaly",
        direction: "either",
        recipients: "ops@client.example",
      });
      demoConnector.lagDays = 2;
      try {
        expect(await evaluate(b)).toMatchObject({ evaluated: 1 });
      } finally {
        delete demoConnector.lagDays;
      }
      const [state] = await listed(b, b.daily);
      // Three days before the company's today (its zone: the factory's UTC).
      const lastFinal = shiftDay(todayInTimezone(b.owner.company.timezone, new Date()), -3);
      expect(state.last_message).toContain(` on ${formatDisplayDate(lastFinal)}, `);
    }, 60_000);

    it("every rule judges on the company's own day: at 03:00 UTC a Los Angeles agency's yesterday is still the 27th", async () => {
      // Sunday 29 November 2026, 03:00 UTC: 19:00 on Saturday the 28th in Los Angeles (UTC−8).
      const at = "2026-11-29T03:00:00Z";
      const la = await board(env(), { timezone: "America/Los_Angeles" });
      const utc = await board(env());
      for (const b of [la, utc]) {
        const saved = await b.owner.client.apiMultipart("POST", `/api/dashboards/${b.dashboardId}`, {
          range_type: "last_7_days",
        });
        expect(saved.statusCode, saved.body).toBe(200);
        await createAlert(b.owner.client, alertsUrl(b, b.figures), sessionsAbove(1));
        await createAlert(b.owner.client, alertsUrl(b, b.daily), {
          metric: "a.sessions",
          condition: "anomaly",
          direction: "either",
          recipients: "ops@client.example",
        });
      }
      const realClock = env().ctx.clock;
      (env().ctx as { clock: unknown }).clock = manualClock(at);
      try {
        for (const b of [la, utc]) expect(await evaluate(b)).toMatchObject({ evaluated: 2 });
      } finally {
        (env().ctx as { clock: unknown }).clock = realClock;
      }
      // The anomaly rule judges the company's last whole day.
      expect((await listed(la, la.daily))[0].last_message).toContain(" on Nov 27, 2026, ");
      expect((await listed(utc, utc.daily))[0].last_message).toContain(" on Nov 28, 2026, ");
      // The threshold rule reads the week its dashboard shows there: 21–27 November in Los Angeles,
      // 22–28 in UTC, the totals the dashboard's own data request answers for them.
      const sessionsOver = async (b: Board, startDate: string, endDate: string, timezone: string) => {
        const response = await b.owner.client.api("POST", "/api/widgets/data", {
          instances: b.figures.nature === "interactive" ? b.figures.instances : [],
          startDate,
          endDate,
          timezone,
        });
        expect(response.statusCode, response.body).toBe(200);
        const { current } = response.json().data;
        const index = current.metrics.findIndex((metric: { key: string }) => metric.key === "a.sessions");
        return (current.totals[index] as number).toLocaleString("en-US");
      };
      const laWeek = await sessionsOver(la, "2026-11-21", "2026-11-27", "America/Los_Angeles");
      const utcWeek = await sessionsOver(utc, "2026-11-22", "2026-11-28", "UTC");
      expect(laWeek).not.toBe(utcWeek);
      expect((await listed(la, la.figures))[0].last_message).toBe(`Sessions rose to ${laWeek}, above 1`);
      expect((await listed(utc, utc.figures))[0].last_message).toBe(`Sessions rose to ${utcWeek}, above 1`);
    }, 60_000);

    it("a dashboard's open alerts come in one request for every card, named by metric; another company gets nothing", async () => {
      const b = await board(env());
      const firing = await createAlert(b.owner.client, alertsUrl(b, b.figures), sessionsAbove(1));
      await createAlert(b.owner.client, alertsUrl(b, b.figures), sessionsAbove(1e12));
      await createAlert(b.owner.client, alertsUrl(b, b.daily), sessionsAbove(1, { paused: true }));
      const before = await b.owner.client.api("GET", openUrl(b));
      expect(before.statusCode, before.body).toBe(200);
      expect(before.json().data).toEqual([]);

      expect(await evaluate(b)).toMatchObject({ evaluated: 2, opened: 1 });
      const member = await buildMember(env(), { company: b.owner.company });
      const open = await member.client.api("GET", openUrl(b));
      expect(open.statusCode, open.body).toBe(200);
      expect(open.json().data).toEqual([
        {
          id: firing.id,
          widget_id: b.figures.id,
          metric: "a.sessions",
          metric_label: "Sessions",
          message: expect.stringMatching(/^Sessions rose to [\d,]+, above 1$/),
          opened_at: expect.any(String),
        },
      ]);

      // Another company: its own dashboard has nothing, and this one is not found.
      const stranger = await board(env());
      const foreign = await stranger.owner.client.api("GET", openUrl(b));
      expect(foreign.statusCode).toBe(404);
      expect(foreign.body).not.toContain(firing.id);
      expect((await stranger.owner.client.api("GET", openUrl(stranger))).json().data).toEqual([]);
      expect((await env().client().api("GET", openUrl(b))).statusCode).toBe(401);

      // Snoozed, it leaves the badge (the member said they know); un-snoozed, it is back.
      await b.owner.client.api("POST", `/api/widget-alerts/${firing.id}/snooze`, {});
      expect((await b.owner.client.api("GET", openUrl(b))).json().data).toEqual([]);
      await b.owner.client.api("DELETE", `/api/widget-alerts/${firing.id}/snooze`);
      expect((await b.owner.client.api("GET", openUrl(b))).json().data).toHaveLength(1);
    }, 60_000);

    it("an evaluation that opens or resolves an alert tells the company's channel; one that changes nothing does not", async () => {
      const b = await board(env());
      const alert = await createAlert(b.owner.client, alertsUrl(b, b.figures), sessionsAbove(1));
      broadcasts.length = 0;
      expect(await evaluate(b)).toMatchObject({ opened: 1 });
      expect(pushedTo(b).map((event) => event.data)).toEqual([
        { dashboard_ids: [b.dashboardId], opened: 1, resolved: 0 },
      ]);

      broadcasts.length = 0;
      expect(await evaluate(b)).toMatchObject({ opened: 0, resolved: 0 });
      expect(pushedTo(b)).toEqual([]);

      await setThreshold(alert.id, 1e12);
      await evaluate(b);
      expect(await evaluate(b)).toMatchObject({ resolved: 1 });
      expect(pushedTo(b).map((event) => event.data)).toEqual([
        { dashboard_ids: [b.dashboardId], opened: 0, resolved: 1 },
      ]);
      expect((await b.owner.client.api("GET", openUrl(b))).json().data).toEqual([]);

      // A member's change of a rule tells the other pages too.
      broadcasts.length = 0;
      await b.owner.client.api("POST", `/api/widget-alerts/${alert.id}/snooze`, {});
      expect(pushedTo(b).map((event) => event.data)).toEqual([
        { dashboard_ids: [b.dashboardId], opened: 0, resolved: 0 },
      ]);
    }, 60_000);

    it("the Mission Control digest lists open widget alerts by dashboard, NEW once, a period once, nothing when none is open", async () => {
      const b = await board(env());
      const alert = await createAlert(b.owner.client, alertsUrl(b, b.figures), sessionsAbove(1));
      expect(await evaluate(b)).toMatchObject({ opened: 1 });
      const digests = () =>
        sink.received.filter(
          (mail) => mail.to.includes(b.owner.email) && mail.parsed.subject?.startsWith("Mission Control"),
        );
      const jobs = env().services.get("campaigns").alertJobs;
      const realClock = env().ctx.clock;
      const setClock = (at: string) => {
        (env().ctx as TestEnv["ctx"] & { clock: ReturnType<typeof manualClock> }).clock = manualClock(at);
      };
      const tomorrow = shiftDay(todayInTimezone("UTC", new Date()), 1);
      try {
        // A company with no Mission Control domains is due its digest for its widget alerts.
        setClock(`${tomorrow}T09:00:00Z`);
        await jobs.scheduleDue();
        // The started queue may be running it, or may have run it already: every state counts.
        const states = ["waiting", "delayed", "active", "completed", "failed"] as const;
        const digestJobs = (
          await Promise.all(states.map((state) => env().ctx.jobs.list("campaigns.digest", state, 1000)))
        )
          .flat()
          .filter((job) => (job.payload as { companyId: string }).companyId === b.owner.company.id);
        expect(digestJobs.map((job) => job.payload)).toContainEqual({
          companyId: b.owner.company.id,
          period: `daily:${tomorrow}`,
        });
        await jobs.sendDigest({ companyId: b.owner.company.id, period: `daily:${tomorrow}` });
        await until(() => digests().length === 1, 30_000, 100);
        // Once per period, whoever runs it.
        expect(await jobs.sendDigest({ companyId: b.owner.company.id, period: `daily:${tomorrow}` })).toBe(false);
        const [mail] = digests();
        expect(mail.parsed.subject).toBe("Mission Control daily digest: 1 new alert, 1 open on 1 dashboard");
        const text = mail.parsed.text ?? "";
        expect(text).toContain("Dashboards that need attention");
        expect(text).toContain(`Dashboard: ${b.name} (${env().ctx.config.appUrl}/dashboards/${b.permalink})`);
        expect(text).toContain("  Key figures · Sessions");
        expect(text).toMatch(/\[NEW\] Sessions rose to [\d,]+, above 1 · since \w{3} \d{2}, \d{4}/);
        const html = String(mail.parsed.html);
        expect(html).toContain("Key figures");
        expect(html).toContain(">NEW<");
        expect(html).toContain(`/dashboards/${b.permalink}`);

        // The next day it is still open, no longer new.
        const after = shiftDay(tomorrow, 1);
        setClock(`${after}T09:00:00Z`);
        expect(await jobs.sendDigest({ companyId: b.owner.company.id, period: `daily:${after}` })).toBe(true);
        await until(() => digests().length === 2, 30_000, 100);
        expect(digests()[1].parsed.subject).toBe("Mission Control daily digest: 1 open alert on 1 dashboard");
        expect(digests()[1].parsed.text).not.toContain("[NEW]");

        // Resolved: nothing open, nothing sent.
        (env().ctx as { clock: unknown }).clock = realClock;
        await setThreshold(alert.id, 1e12);
        await evaluate(b);
        await evaluate(b);
        const later = shiftDay(after, 1);
        setClock(`${later}T09:00:00Z`);
        expect(await jobs.sendDigest({ companyId: b.owner.company.id, period: `daily:${later}` })).toBe(false);
      } finally {
        (env().ctx as { clock: unknown }).clock = realClock;
      }
      expect(digests()).toHaveLength(2);
    }, 90_000);
  },
  async () => {
    sink = await startSmtpSink();
    return { SMTP_URL: sink.url, APP_URL: "http://127.0.0.1:3000" };
  },
);
