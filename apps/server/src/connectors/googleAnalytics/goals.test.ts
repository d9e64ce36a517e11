import {
  goalLine,
  goalProgress,
  removedWithGoalNotice,
  shiftDay,
  WIDGET_ALERT_MESSAGES,
  WIDGET_GOAL_MESSAGES,
} from "@app/core";
import { buildInstance, buildWidget } from "@app/core/widgets/test-fixtures";
import { afterAll, expect, it } from "vitest";
import { buildDashboard, buildOwner, buildReport, buildUser } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import { describeEachDb, type TestEnv } from "../../../test/harness";
import { until } from "../../../test/wait";
import { widgetAnswersComputed } from "../../features/widgets/answer-cache";
import { manualClock } from "../../infra/clock";
import { fakeValue, googleFake } from "../google/fake";

const fakes = fakesForFile(afterAll, () => ({ google: googleFake() }));

// A fixed clock: Saturday 28 November 2026, noon UTC. The dashboard's "Monthly" range ends yesterday.
const NOW = "2026-11-28T12:00:00Z";
const RANGE = { startDate: "2026-11-01", endDate: "2026-11-27", timezone: "UTC" };
const PROFILE = "2005";

/** The fake GA4's sessions of a day for the test's property (fake.ts fakeValue). */
const sessionsOn = (day: string) => fakeValue("sessions", day.replaceAll("-", ""), PROFILE);

/**
 * Core's own verdict on a monthly goal of `target` for November, seen on the fixed clock's day, over the
 * fake's `valueOn` by day from eight weeks before November through yesterday (what the provider answers
 * by date); `total`, the provider's own total of November so far, when the goal has one.
 */
function novemberByRules(valueOn: (day: string) => number, target: number, total?: number) {
  const series = [];
  for (let day = "2026-09-06"; day <= "2026-11-27"; day = shiftDay(day, 1)) series.push({ day, value: valueOn(day) });
  return goalProgress({
    target,
    period: "month",
    range: { startDate: "2026-11-01", endDate: "2026-11-30" },
    today: "2026-11-28",
    lagDays: 1,
    aggregation: "sum",
    lowerIsBetter: false,
    series,
    ...(total !== undefined && { total }),
  });
}

function withClock<T>(env: TestEnv, at: string, run: () => Promise<T>): Promise<T> {
  const real = env.ctx.clock;
  (env.ctx as { clock: unknown }).clock = manualClock(at);
  return run().finally(() => {
    (env.ctx as { clock: unknown }).clock = real;
  });
}

/**
 * The widget's data as a visitor of the dashboard's public link asks it, under the fixed clock: the saved
 * widget's goals come with it.
 */
async function publicAnswer(env: TestEnv, dashboard: { permalink: string }, range: typeof RANGE) {
  return withClock(env, NOW, async () => {
    const response = await env
      .client()
      .api("POST", `/api/dashboards/${dashboard.permalink}/widgets/sessions/data`, range);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  });
}

/** An owner with a GA4 sessions widget (one number, no dimension) carrying `goals`, on a saved dashboard. */
async function ga4Dashboard(
  env: TestEnv,
  goals: unknown[],
  { metrics = ["sessions"], timezone = "UTC" }: { metrics?: string[]; timezone?: string } = {},
) {
  const owner = await buildOwner(env, { company: { timezone } });
  const { result } = await connectOAuth(owner.client, "googleAnalytics");
  expect(result).toMatchObject({ ok: true });
  const instance = buildInstance({
    id: "ga",
    type: "googleAnalytics.ga4",
    sourceId: result.sourceId,
    inputs: { property: "1002", profile: PROFILE, dimension: "", metrics },
  });
  const widget = buildWidget({
    id: "sessions",
    hash: "sessions",
    format: "summary",
    instances: [instance],
    goals: goals as never,
  });
  const dashboard = await buildDashboard(env, { company: owner.company, user: owner.user, widgets: [widget] });
  return { owner, dashboard, instance, widget };
}

describeEachDb(
  "widget goals: value, progress and pace in the widget-data answer",
  (env) => {
    it("a GA4 widget with a monthly goal answers November's value, progress and a projection from its settled days", async () => {
      const { owner, dashboard, instance } = await ga4Dashboard(env(), [
        { metric: "a.sessions", target: 4000, period: "month" },
      ]);
      // Anyone who may view the dashboard (here a visitor of its public link) gets the saved widget's goals.
      const answer = await publicAnswer(env(), dashboard, RANGE);
      let value = 0;
      for (let day = "2026-11-01"; day <= "2026-11-27"; day = shiftDay(day, 1)) value += sessionsOn(day);
      expect(answer.current.totals[0]).toBe(value);
      const [goal] = answer.goals;
      expect(goal).toMatchObject({
        metric: "a.sessions",
        target: 4000,
        period: "month",
        startDate: "2026-11-01",
        endDate: "2026-11-30",
        dataThrough: "2026-11-27",
        // GA4 keeps filling in yesterday (lagDays 1): the 27th is shown but projected, not trusted.
        settledThrough: "2026-11-26",
        daysTotal: 30,
        daysLeft: 3,
        aggregation: "sum",
        lowerIsBetter: false,
        threshold: 4000,
        value,
      });
      expect(goal.progress).toBeCloseTo(value / 4000, 10);
      // The projection is the rules' own over the days the provider answered by date: the eight weeks
      // before November and November through yesterday, nothing after it.
      const expected = novemberByRules(sessionsOn, 4000, value);
      expect(goal.projected).toBeCloseTo(expected.projected as number, 6);
      // Three more days of ~130 sessions: more than the value, less than the value plus four such days.
      expect(goal.projected).toBeGreaterThan(value + 3 * 100);
      expect(goal.projected).toBeLessThan(value + 3 * 160);
      expect(goal.onTrack).toBe(goal.projected >= 4000);
      const named = { ...expected, period: "month" as const, startDate: "2026-11-01" };
      expect(goal.line).toBe(goalLine(named, { format: "number", currency: null }));
      // 103 + the day of the month, from the 1st to the 27th; Sat 28, Sun 29 and Mon 30 from their weekdays.
      // The line names the month it counts: the card's range may be another (docs/decisions.md).
      expect(goal.line).toBe("November: 3,159 of 4,000 (79 %) · 3 days left · on pace for 3,540, 12 % short");

      // The editor's own request (the widget's instances and goals as it holds them) gets the same goals;
      // a goal on a metric the instances do not show is a 422 on its field.
      const edited = await withClock(env(), NOW, () =>
        owner.client.api("POST", "/api/widgets/data", {
          ...RANGE,
          instances: [instance],
          goals: [{ metric: "a.sessions", target: 4000, period: "month" }],
        }),
      );
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json().data.goals).toEqual(answer.goals);
      const wrong = await owner.client.api("POST", "/api/widgets/data", {
        ...RANGE,
        instances: [instance],
        goals: [{ metric: "a.users", target: 4000, period: "month" }],
      });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().errors).toEqual({ "goals.0.metric": [WIDGET_GOAL_MESSAGES.metricUnknown] });
    });

    it("users over a month are GA4's own count, not the days' users added up; the pace grows that count as the days grow", async () => {
      // GA4 counts a returning user once per range: half of everyone beyond the busiest day came back.
      const google = (await fakes.current()).parts.google;
      google.returningUserShare = 0.5;
      try {
        const { dashboard } = await ga4Dashboard(env(), [{ metric: "a.activeUsers", target: 2000, period: "month" }], {
          metrics: ["activeUsers"],
        });
        // The dashboard shows the last 7 days; the goal measures November so far, so its value needs a query of its own.
        const week = { startDate: "2026-11-21", endDate: "2026-11-27", timezone: "UTC" };
        const answer = await publicAnswer(env(), dashboard, week);
        const usersOn = (day: string) => fakeValue("activeUsers", day.replaceAll("-", ""), PROFILE);
        const november: number[] = [];
        for (let day = "2026-11-01"; day <= "2026-11-27"; day = shiftDay(day, 1)) november.push(usersOn(day));
        const added = november.reduce((sum, value) => sum + value, 0);
        const distinct = Math.round(added - 0.5 * (added - Math.max(...november)));
        const [goal] = answer.goals;
        expect(goal).toMatchObject({ metric: "a.activeUsers", period: "month", value: distinct });
        expect(distinct).toBeLessThan(added);
        // The days' own projection (their sum, Sat 28 to Mon 30 from their weekdays), carried over as a ratio.
        const byDays = novemberByRules(usersOn, 2000);
        expect(byDays.value).toBe(added);
        expect(goal.projected).toBeCloseTo(distinct * ((byDays.projected as number) / added), 6);
        expect(goal.projected).toBeLessThan(added);
      } finally {
        google.returningUserShare = 0;
      }
    });

    it("an off-pace alert opens once while the monthly goal is short and resolves once a changed goal is on track", async () => {
      const { owner, dashboard, widget } = await ga4Dashboard(env(), [
        { metric: "a.sessions", target: 4000, period: "month" },
      ]);
      const alertsUrl = `/api/dashboards/${dashboard.id}/widgets/sessions/alerts`;
      const rule = { metric: "a.sessions", condition: "offPace", recipients: "ceo@client.example" };
      // A metric without a goal has no pace to be off: 422 on the condition.
      const saveGoals = (goals: unknown[]) =>
        owner.client.apiMultipart("POST", `/api/dashboards/${dashboard.id}`, {
          widgets: JSON.stringify([{ ...widget, goals }]),
        });
      expect((await saveGoals([])).statusCode).toBe(200);
      const refused = await owner.client.api("POST", alertsUrl, rule);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors).toEqual({ condition: [WIDGET_ALERT_MESSAGES.offPaceWithoutGoal] });
      expect((await saveGoals([{ metric: "a.sessions", target: 4000, period: "month" }])).statusCode).toBe(200);

      const created = await owner.client.api("POST", alertsUrl, rule);
      expect(created.statusCode, created.body).toBe(200);
      expect(created.json().data).toMatchObject({ condition: "offPace", value: null });
      const evaluate = () =>
        withClock(env(), NOW, () => env().services.get("widgetAlerts").evaluateCompany(owner.company.id));
      const listed = async () => (await owner.client.api("GET", alertsUrl)).json().data[0];
      const alertMails = () =>
        env()
          .outbox()
          .filter((mail) => mail.includes("Rule: Sessions goal is off pace"));

      // The widget's own verdict (the widget-data answer's goal): November is on pace for 3,540 of 4,000.
      expect(await evaluate()).toMatchObject({ evaluated: 1, opened: 1, mailed: 1 });
      expect(await listed()).toMatchObject({
        state: "open",
        last_message:
          "Sessions goal (November) is off pace: 3,159 of 4,000 (79 %) · 3 days left · on pace for 3,540, 12 % short",
      });
      expect(alertMails()).toHaveLength(1);
      // Still short: still open, no second mail.
      expect(await evaluate()).toMatchObject({ evaluated: 1, opened: 0, mailed: 0 });

      // A target of 3,500 is on track: two passing passes resolve it (the alerts' hysteresis), no mail.
      expect((await saveGoals([{ metric: "a.sessions", target: 3500, period: "month" }])).statusCode).toBe(200);
      expect(await evaluate()).toMatchObject({ resolved: 0 });
      expect(await evaluate()).toMatchObject({ resolved: 1, mailed: 0 });
      const resolved = await listed();
      expect(resolved.state).toBe("resolved");
      expect(resolved.last_message).toMatch(/^Sessions goal \(November\) is on track: 3,159 of 3,500 \(90 %\)/);
      expect(alertMails()).toHaveLength(1);
    });

    it("off-pace rules judge the goal in the company's time zone: its today, not UTC's", async () => {
      // Kiritimati is UTC+14: at noon UTC on Saturday 28 November its agency's day is Sunday the 29th.
      const { owner, dashboard } = await ga4Dashboard(
        env(),
        [{ metric: "a.sessions", target: 4000, period: "month" }],
        { timezone: "Pacific/Kiritimati" },
      );
      const alertsUrl = `/api/dashboards/${dashboard.id}/widgets/sessions/alerts`;
      const rule = { metric: "a.sessions", condition: "offPace", recipients: "ceo@client.example" };
      expect((await owner.client.api("POST", alertsUrl, rule)).statusCode).toBe(200);
      await withClock(env(), NOW, () => env().services.get("widgetAlerts").evaluateCompany(owner.company.id));
      const [alert] = (await owner.client.api("GET", alertsUrl)).json().data;
      // November through the 28th (yesterday there) with two days left; in UTC it would be the 27th and three.
      let value = 0;
      for (let day = "2026-11-01"; day <= "2026-11-28"; day = shiftDay(day, 1)) value += sessionsOn(day);
      expect(alert.last_message).toMatch(
        new RegExp(
          `^Sessions goal \\(November\\) is (off pace|on track): ${value.toLocaleString("en-US")} of 4,000 \\(\\d+ %\\) · 2 days left`,
        ),
      );
    });

    it("a save that takes the goal off a metric removes its off-pace alert with it, and says so", async () => {
      const goal = { metric: "a.sessions", target: 4000, period: "month" };
      const { owner, dashboard, widget } = await ga4Dashboard(env(), [goal, { ...goal, period: "week" }]);
      const alertsUrl = `/api/dashboards/${dashboard.id}/widgets/sessions/alerts`;
      const offPace = { metric: "a.sessions", condition: "offPace", recipients: "ceo@client.example" };
      const below = { metric: "a.sessions", condition: "below", value: 100, recipients: "ceo@client.example" };
      for (const rule of [offPace, below])
        expect((await owner.client.api("POST", alertsUrl, rule)).statusCode).toBe(200);
      const save = (goals: unknown[]) =>
        owner.client.apiMultipart("POST", `/api/dashboards/${dashboard.id}`, {
          widgets: JSON.stringify([{ ...widget, goals }]),
        });
      const conditions = async () =>
        (await owner.client.api("GET", alertsUrl)).json().data.map((alert: { condition: string }) => alert.condition);

      // The weekly goal goes, the monthly one stays: the metric still has a pace, the rule stays.
      const kept = await save([goal]);
      expect(kept.statusCode, kept.body).toBe(200);
      expect(kept.json().data.notices).toBeUndefined();
      expect(await conditions()).toEqual(["offPace", "below"]);

      // Checked once, the rule says the metric as the widget's data names it.
      await withClock(env(), NOW, () => env().services.get("widgetAlerts").evaluateCompany(owner.company.id));
      // The last goal on sessions goes: its off-pace rule goes too, the threshold rule stays, and the save says so.
      const removed = await save([]);
      expect(removed.statusCode, removed.body).toBe(200);
      expect(removed.json().data.notices).toEqual([removedWithGoalNotice("Sessions goal is off pace")]);
      expect(removed.json().data.notices).toEqual(["The alert “Sessions goal is off pace” was removed with its goal."]);
      expect(await conditions()).toEqual(["below"]);

      // A save refused (the dashboard is locked by another member) takes neither the goal nor the rule.
      expect((await save([goal])).statusCode).toBe(200);
      expect((await owner.client.api("POST", alertsUrl, offPace)).statusCode).toBe(200);
      const other = await buildUser(env(), { company: owner.company });
      await env()
        .ctx.db.updateTable("dashboards")
        .set({ locked_by: other.id, locked_at: new Date().toISOString() })
        .where("id", "=", dashboard.id)
        .execute();
      expect((await save([])).statusCode).toBe(403);
      expect(await conditions()).toEqual(["below", "offPace"]);
    });

    it("a bad goal on the dashboard save is a 422 on its own field and loses nothing already saved", async () => {
      const good = { metric: "a.sessions", target: 4000, period: "month" };
      const { owner, dashboard, widget } = await ga4Dashboard(env(), [good]);
      const save = (goals: unknown[]) =>
        owner.client.apiMultipart("POST", `/api/dashboards/${dashboard.id}`, {
          name: "Renamed",
          widgets: JSON.stringify([{ ...widget, goals }]),
        });
      const bad = await save([
        { metric: "a.users", target: 10, period: "month" },
        { metric: "a.sessions", target: -5, period: "week" },
        { metric: "a.sessions", target: 5, period: "year" },
        { metric: "a.sessions", target: Number.NaN, period: "range" },
      ]);
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toEqual({
        "widgets.0.goals.0.metric": [WIDGET_GOAL_MESSAGES.metricUnknown],
        "widgets.0.goals.1.target": [WIDGET_GOAL_MESSAGES.targetNegative],
        "widgets.0.goals.2.period": [WIDGET_GOAL_MESSAGES.period],
        // NaN travels as JSON null.
        "widgets.0.goals.3.target": [WIDGET_GOAL_MESSAGES.targetNumber],
      });
      const shown = (await owner.client.api("GET", `/api/dashboards/${dashboard.permalink}`)).json().data;
      expect(shown.name).toBe(dashboard.name);
      expect(shown.widgets[0].goals).toEqual([good]);

      const changed = await save([
        { ...good, target: 4500 },
        { metric: "a.sessions", target: 10, period: "change" },
      ]);
      expect(changed.statusCode, changed.body).toBe(200);
      const again = (await owner.client.api("GET", `/api/dashboards/${dashboard.permalink}`)).json().data;
      expect(again.widgets[0].goals).toEqual([
        { ...good, target: 4500 },
        { metric: "a.sessions", target: 10, period: "change" },
      ]);
    });

    it("the insights summary counts the goals and names the one furthest off", async () => {
      const { owner, dashboard } = await ga4Dashboard(env(), [
        { metric: "a.sessions", target: 4000, period: "month" },
        { metric: "a.sessions", target: 3000, period: "range" },
      ]);
      /** The dashboard's insights as its owner's page asks them, under the fixed clock. */
      const insights = () =>
        withClock(env(), NOW, async () => {
          const response = await owner.client.api("POST", `/api/dashboards/${dashboard.permalink}/insights`, RANGE);
          expect(response.statusCode, response.body).toBe(200);
          return response.json().data;
        });
      const body = await insights();
      // November so far (3,159) is past the range's 3,000; the month is on pace for 3,540 of 4,000.
      expect(body.goals).toBe("1 of 2 goals on track; Sessions 12 % short");

      // A German client's dashboard says it in German, the metric's label included.
      const saved = await owner.client.apiMultipart("POST", `/api/dashboards/${dashboard.id}`, { language: "de" });
      expect(saved.statusCode, saved.body).toBe(200);
      const german = await insights();
      expect(german.goals).toBe("1 von 2 Zielen auf Kurs; Sitzungen 12\u00a0% unter Ziel");
    });

    it("the page's insights request and a report's summary read each goal widget's answer once, with its goals", async () => {
      const { owner, dashboard } = await ga4Dashboard(env(), [{ metric: "a.sessions", target: 4000, period: "month" }]);
      /** Widget-data answers computed (not found kept) while `run` runs. */
      const computed = async <T>(run: () => Promise<T>) => {
        const before = widgetAnswersComputed();
        const result = await withClock(env(), NOW, run);
        return { result, answers: widgetAnswersComputed() - before };
      };
      // A range GA4 has settled (its lagging day is the 27th), so its sentences are judged too.
      const settled = { ...RANGE, endDate: "2026-11-20" };
      // Nothing read yet: the sentences and the goals' line come from one answer.
      const first = await computed(() =>
        owner.client.api("POST", `/api/dashboards/${dashboard.permalink}/insights`, settled),
      );
      expect(first.result.statusCode, first.result.body).toBe(200);
      expect(first.result.json().data.goals).toBe("0 of 1 goal on track; Sessions 12 % short");
      // Two answers: the widget's own, with its goals (once: the goals' line takes it from the sentences'
      // read), and its sessions by day over the eight weeks before (the history its sentences weigh).
      expect(first.answers).toBe(2);
      // The page asks its card's data and its insights: the insights find the card's own answer.
      const range = { ...settled, startDate: "2026-11-02" };
      const card = await computed(() =>
        env().client().api("POST", `/api/dashboards/${dashboard.permalink}/widgets/sessions/data`, range),
      );
      expect(card.answers).toBe(1);
      const page = await computed(() =>
        owner.client.api("POST", `/api/dashboards/${dashboard.permalink}/insights`, range),
      );
      expect(page.result.json().data.goals).toBe("0 of 1 goal on track; Sessions 12 % short");
      // Only the history is new: the widget's answer with its goals is the card's.
      expect(page.answers).toBe(1);
      // A report's summary (its e-mail's goals line and sentences), the insights summary on: the same two.
      await owner.client.apiMultipart("POST", `/api/dashboards/${dashboard.id}`, {
        styles: JSON.stringify({ insightsSummary: true }),
      });
      const report = await computed(() =>
        env()
          .services.get("insights")
          .reportSummary(owner.company.id, dashboard.id, { startDate: "2026-11-03", endDate: "2026-11-20" }, "UTC"),
      );
      expect(report.result.goals).toBe("0 of 1 goal on track; Sessions 12 % short");
      expect(report.answers).toBe(2);
    });

    it("a report e-mail says the goals' line in its HTML and text, with the insights summary off and on", async () => {
      // The report e-mail is sent by its job, as in production. Started here, in the file's last test, so
      // no hourly alert pass can run beside the off-pace test's own evaluations.
      await env().ctx.jobs.start();
      const { owner, dashboard } = await ga4Dashboard(env(), [
        { metric: "a.sessions", target: 4000, period: "month" },
        { metric: "a.sessions", target: 3000, period: "range" },
      ]);
      const report = await buildReport(env(), {
        company: owner.company,
        dashboard,
        input: { timezone: "UTC", with_preview: false, with_pdf: false, date_range: "LAST_30_DAYS" },
      });
      /** Sends the report at `at` (through its job) and answers the new mail in the test outbox. */
      const sendNow = (at: string) =>
        withClock(env(), at, async () => {
          const before = env().outbox().length;
          const sent = await owner.client.api("POST", `/api/automatic-reports/${report.id}/send`, {});
          expect(sent.statusCode, sent.body).toBe(200);
          await until(() => env().outbox().length > before, 30_000, 100);
          const mail = env().outbox()[before];
          // The report's range (LAST_30_DAYS) resolved on the fixed clock.
          expect(mail).toContain("Last 30 Days: <strong>Oct 29, 2026 - Nov 27, 2026</strong>");
          return mail;
        });
      // Oct 29–Nov 27 holds more than 3,000 sessions; November is on pace for 3,540 of 4,000.
      const line = "1 of 2 goals on track; Sessions 12 % short";

      // The dashboard's insights summary is off: the goals' line is there all the same, the insights are not.
      const quiet = await sendNow(NOW);
      expect(quiet).toContain(`<strong>Goals:</strong> ${line}.</td>`);
      expect(quiet).toContain(`\nGoals: ${line}.\n`);
      expect(quiet).not.toContain("Insights");

      // With the summary on, the line is said once, before the insights.
      await owner.client.apiMultipart("POST", `/api/dashboards/${dashboard.id}`, {
        styles: JSON.stringify({ insightsSummary: true }),
      });
      // A manual send is keyed by its instant: the second goes out a few minutes later, the same day.
      const summarised = await sendNow("2026-11-28T12:05:00Z");
      expect(summarised.split(`Goals: ${line}.`)).toHaveLength(2);
      expect(summarised.split(`<strong>Goals:</strong> ${line}.`)).toHaveLength(2);

      // A German client's report says the line in German, with the summary off (the goals' own queries).
      await owner.client.apiMultipart("POST", `/api/dashboards/${dashboard.id}`, {
        styles: JSON.stringify({ insightsSummary: false }),
        language: "de",
      });
      const german = await withClock(env(), "2026-11-28T12:10:00Z", async () => {
        const before = env().outbox().length;
        const sent = await owner.client.api("POST", `/api/automatic-reports/${report.id}/send`, {});
        expect(sent.statusCode, sent.body).toBe(200);
        await until(() => env().outbox().length > before, 30_000, 100);
        // The outbox decodes quoted-printable byte for byte: UTF-8 read back as such.
        return Buffer.from(env().outbox()[before], "latin1").toString("utf8");
      });
      const zeile = "1 von 2 Zielen auf Kurs; Sitzungen 12\u00a0% unter Ziel";
      expect(german).toContain(`<strong>Ziele:</strong> ${zeile}.</td>`);
      expect(german).toContain(`\nZiele: ${zeile}.\n`);
    }, 90_000);
  },
  fakes.env,
);
