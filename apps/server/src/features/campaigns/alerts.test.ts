import {
  DEFAULT_ALERT_RULES,
  REALTIME_EVENTS,
  type TAlertRule,
  type TCampaign,
  type TCampaignAlertSettings,
} from "@app/core";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { buildMember, buildOwner, type Owner } from "../../../test/factories";
import { describeEachDb, type TestClient, type TestEnv } from "../../../test/harness";
import { type ReceivedMail, startSmtpSink } from "../../../test/smtp-sink";
import { manualClock } from "../../infra/clock";
import type { AppEvents } from "../../infra/events";
import { DIGEST_JOB } from "./alert-jobs";
import { BACKFILL_JOB, SNAPSHOT_JOB, type TBackfillPayload, type TSnapshotPayload } from "./metrics";
import { addDomain, createGroup, showGroup } from "./test-helpers";

const DAY_MS = 86_400_000;
// A fixed Thursday morning: the demo series (a function of the day) and so every verdict are the same on every run.
const START = "2026-11-26T10:00:00Z";

let sink: Awaited<ReturnType<typeof startSmtpSink>>;

/** Runs every waiting backfill of the company as the worker would (the test env never starts the queue). */
async function runBackfills(env: TestEnv, companyId: string) {
  for (const job of await env.ctx.jobs.list(BACKFILL_JOB, "waiting", 1000)) {
    const payload = job.payload as TBackfillPayload;
    if (payload.companyId === companyId) await env.services.get("campaigns").metrics.backfill(payload);
  }
}

/** The daily snapshot of one company for the clock's yesterday, as the scheduler queues it. */
async function runSnapshot(env: TestEnv, companyId: string) {
  const metrics = env.services.get("campaigns").metrics;
  await metrics.scheduleSnapshots();
  const job = (await env.ctx.jobs.list(SNAPSHOT_JOB, "waiting", 1000)).find(
    (record) => (record.payload as TSnapshotPayload).companyId === companyId,
  );
  expect(job, "a snapshot job").toBeDefined();
  await metrics.snapshot(job?.payload as TSnapshotPayload);
}

const rulesOf = (domain: TCampaign["domains"][number]) => domain.alerts.map((alert) => alert.rule).sort();

async function alertRows(env: TestEnv, domainId: string) {
  return env.ctx.db
    .selectFrom("campaign_alerts")
    .selectAll()
    .where("campaign_domain_id", "=", domainId)
    .orderBy("rule")
    .orderBy("opened_at")
    .execute();
}

async function saveSettings(client: TestClient, settings: TCampaignAlertSettings) {
  return client.api("PUT", "/api/campaigns/alert-settings", settings);
}

/** The default rules with one rule's threshold changed. */
function withThreshold(id: string, threshold: number): TAlertRule[] {
  return DEFAULT_ALERT_RULES.map((rule) => (rule.id === id ? { ...rule, threshold } : rule));
}

describeEachDb(
  "Mission Control alerts: evaluation, hysteresis, snooze, rules and the digest",
  (env) => {
    let clock: ReturnType<typeof manualClock>;
    const broadcasts: AppEvents["realtime.broadcast"][] = [];
    const onboarding: AppEvents["onboarding.event"][] = [];
    beforeAll(() => {
      env().ctx.events.subscribe("realtime.broadcast", (event) => {
        broadcasts.push(event);
      });
      env().ctx.events.subscribe("onboarding.event", (event) => {
        onboarding.push(event);
      });
    });
    beforeEach(() => {
      clock = manualClock(START);
      (env().ctx as TestEnv["ctx"] & { clock: typeof clock }).clock = clock;
      broadcasts.length = 0;
    });
    afterAll(async () => {
      await sink.close();
    });

    /** A group with a scripted drop and a healthy domain, backfilled (and so judged). */
    async function droppedGroup(owner: Owner, name = "Retainers") {
      const group = await createGroup(owner.client, name);
      const drop = await addDomain(owner.client, group.id, "drop-acme.com");
      const healthy = await addDomain(owner.client, group.id, "globex.io");
      await runBackfills(env(), owner.company.id);
      return { group, drop, healthy };
    }

    it("a scripted drop opens its alerts after the backfill, with reasons; the healthy domain's stay shut; open pages are told", async () => {
      const owner = await buildOwner(env());
      const { group, drop, healthy } = await droppedGroup(owner);

      const shown = await showGroup(owner.client, group.id);
      const dropRow = shown.domains.find((domain) => domain.id === drop.id);
      const healthyRow = shown.domains.find((domain) => domain.id === healthy.id);
      // Every metric of drop-acme.com is 40 % worse over its last 7 days.
      expect(rulesOf(dropRow as never)).toEqual(
        expect.arrayContaining(["clicks-drop", "sessions-drop", "referring-domains-drop", "average-position-worse"]),
      );
      expect(dropRow?.open_alert_count).toBe(dropRow?.alerts.length);
      const clicks = dropRow?.alerts.find((alert) => alert.rule === "clicks-drop");
      expect(clicks).toMatchObject({ metric: "clicks", opened_at: clock.now().toISOString() });
      expect(clicks?.reason).toMatch(
        /^Clicks fell from [\d,]+ to [\d,]+ \(−\d+(\.\d+)?%\) in the last 7 days compared with the 7 days before$/,
      );
      for (const rule of ["clicks-drop", "sessions-drop"]) expect(rulesOf(healthyRow as never)).not.toContain(rule);
      // No-data rules judge the provider's latest day: a backfilled demo domain has data up to it.
      expect(rulesOf(dropRow as never)).not.toContain("clicks-no-data");

      const list = (await owner.client.api("GET", "/api/campaigns")).json().data;
      expect(list[0]).toMatchObject({ id: group.id, open_alert_count: dropRow?.alerts.length });

      const pushed = broadcasts.filter((event) => event.event === REALTIME_EVENTS.campaignAlertsUpdated);
      expect(pushed.length).toBeGreaterThan(0);
      expect(pushed[0]).toMatchObject({ channel: `company.${owner.company.id}`, data: { campaign_ids: [group.id] } });
      expect(pushed.reduce((sum, event) => sum + (event.data as { opened: number }).opened, 0)).toBe(
        (dropRow?.alerts.length ?? 0) + (healthyRow?.alerts.length ?? 0),
      );
    });

    it("judging again opens no second alert; a loosened rule resolves after two passing days, not two passes the same day", async () => {
      const owner = await buildOwner(env());
      const { drop } = await droppedGroup(owner);
      const opened = (await alertRows(env(), drop.id)).filter((row) => row.rule === "clicks-drop");
      expect(opened).toHaveLength(1);

      // The same day's snapshot and an explicit evaluation judge the same failure: still one open alert.
      await runSnapshot(env(), owner.company.id);
      await env().services.get("campaigns").alerts.evaluate(owner.company.id);
      expect((await alertRows(env(), drop.id)).filter((row) => row.rule === "clicks-drop")).toEqual([
        expect.objectContaining({ id: opened[0].id, state: "open", passing_count: 0 }),
      ]);

      // −40 % no longer counts as a fall worth an alert…
      expect(
        (await saveSettings(owner.client, { rules: withThreshold("clicks-drop", 90), digest: "daily" })).statusCode,
      ).toBe(200);
      // …but judging the same day's data again counts no pass (the alert would resolve within minutes).
      await env().services.get("campaigns").alerts.evaluate(owner.company.id);
      await env().services.get("campaigns").alerts.evaluate(owner.company.id);
      expect((await alertRows(env(), drop.id)).find((row) => row.id === opened[0].id)).toMatchObject({
        state: "open",
        passing_count: 0,
      });

      clock.advance(DAY_MS);
      await runSnapshot(env(), owner.company.id);
      expect((await alertRows(env(), drop.id)).find((row) => row.id === opened[0].id)).toMatchObject({
        state: "open",
        passing_count: 1,
      });
      clock.advance(DAY_MS);
      broadcasts.length = 0;
      await runSnapshot(env(), owner.company.id);
      expect((await alertRows(env(), drop.id)).find((row) => row.id === opened[0].id)).toMatchObject({
        state: "resolved",
        passing_count: 2,
        resolved_at: clock.now().toISOString(),
      });
      expect(broadcasts.some((event) => (event.data as { resolved: number }).resolved > 0)).toBe(true);

      // Tightened again: a new alert opens; the resolved one stays as history.
      await saveSettings(owner.client, { rules: [...DEFAULT_ALERT_RULES], digest: "daily" });
      await env().services.get("campaigns").alerts.evaluate(owner.company.id);
      const history = (await alertRows(env(), drop.id)).filter((row) => row.rule === "clicks-drop");
      expect(history.map((row) => row.state).sort()).toEqual(["open", "resolved"]);
    });

    it("a snoozed domain's alerts are hidden from the page and the counts; un-snoozing judges it afresh", async () => {
      const owner = await buildOwner(env());
      const { group, drop } = await droppedGroup(owner);
      const before = await showGroup(owner.client, group.id);
      const count = before.domains.find((domain) => domain.id === drop.id)?.alerts.length ?? 0;
      expect(count).toBeGreaterThan(0);

      const snoozed = await owner.client.api("POST", `/api/campaigns/${group.id}/domains/${drop.id}/snooze`, {});
      expect(snoozed.statusCode, snoozed.body).toBe(200);
      const hidden = await showGroup(owner.client, group.id);
      expect(hidden.domains.find((domain) => domain.id === drop.id)).toMatchObject({
        snoozed: true,
        alerts: [],
        open_alert_count: 0,
      });
      expect((await owner.client.api("GET", "/api/campaigns")).json().data[0].open_alert_count).toBe(
        hidden.domains.reduce((sum, domain) => sum + domain.open_alert_count, 0),
      );
      // Data keeps flowing and the rules keep judging: one passing day with a loosened rule…
      await saveSettings(owner.client, { rules: withThreshold("clicks-drop", 90), digest: "daily" });
      clock.advance(DAY_MS);
      await runSnapshot(env(), owner.company.id);
      const clicks = () => alertRows(env(), drop.id).then((rows) => rows.find((row) => row.rule === "clicks-drop"));
      expect(await clicks()).toMatchObject({ state: "open", passing_count: 1 });

      // …and the un-snooze (a while later) decides afresh: one pass now resolves it.
      clock.advance(60_000);
      const woken = await owner.client.api("DELETE", `/api/campaigns/${group.id}/domains/${drop.id}/snooze`);
      expect(woken.statusCode, woken.body).toBe(200);
      expect(woken.json().data).toMatchObject({ snoozed: false, alerts_snoozed_until: clock.now().toISOString() });
      expect(await clicks()).toMatchObject({ state: "resolved" });
      const shown = await showGroup(owner.client, group.id);
      const row = shown.domains.find((domain) => domain.id === drop.id);
      expect(rulesOf(row as never)).not.toContain("clicks-drop");
      expect(row?.alerts.length).toBeGreaterThan(0);
    });

    it("a snooze that runs out is judged again by the 15-minute pass", async () => {
      const owner = await buildOwner(env());
      const { group, drop } = await droppedGroup(owner);
      await owner.client.api("POST", `/api/campaigns/${group.id}/domains/${drop.id}/snooze`, {});
      clock.advance(7 * DAY_MS + 60_000);
      const jobs = env().services.get("campaigns").alertJobs;
      await jobs.scheduleDue();
      const queued = (await env().ctx.jobs.list("campaigns.evaluate", "waiting", 1000)).filter(
        (job) => (job.payload as { companyId: string }).companyId === owner.company.id,
      );
      expect(queued.map((job) => job.payload)).toEqual([{ companyId: owner.company.id, domainIds: [drop.id] }]);
      await env().services.get("campaigns").alerts.evaluate(owner.company.id, [drop.id]);
      const shown = await showGroup(owner.client, group.id);
      expect(shown.domains.find((domain) => domain.id === drop.id)).toMatchObject({ snoozed: false });
      expect(shown.domains.find((domain) => domain.id === drop.id)?.alerts.length).toBeGreaterThan(0);
      // Judged since the snooze ended: the next pass does not queue it again.
      await jobs.scheduleDue();
      expect(
        (await env().ctx.jobs.list("campaigns.evaluate", "waiting", 1000)).filter(
          (job) => (job.payload as { companyId: string }).companyId === owner.company.id,
        ),
      ).toHaveLength(1);
    });

    it("the company's rules: defaults, admin-only changes, 422 per field, group overrides checked and applied", async () => {
      const owner = await buildOwner(env());
      const member = await buildMember(env(), { company: owner.company, role: "user" });
      const defaults = await owner.client.api("GET", "/api/campaigns/alert-settings");
      expect(defaults.json().data).toEqual({ rules: [...DEFAULT_ALERT_RULES], digest: "daily" });
      expect((await member.client.api("GET", "/api/campaigns/alert-settings")).statusCode).toBe(200);

      const refused = await saveSettings(member.client, { rules: [...DEFAULT_ALERT_RULES], digest: "weekly" });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe("Only an admin can change the alert rules.");

      const bad = await owner.client.api("PUT", "/api/campaigns/alert-settings", {
        rules: [
          { ...DEFAULT_ALERT_RULES[0], threshold: -1 },
          { ...DEFAULT_ALERT_RULES[1], id: DEFAULT_ALERT_RULES[0].id },
          { ...DEFAULT_ALERT_RULES[5], threshold: 2.5 },
        ],
        digest: "hourly",
      });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toMatchObject({
        "rules.0.threshold": ["The threshold must be a number above 0."],
        "rules.1.id": ["Two rules have the same id."],
        "rules.2.threshold": ["The number of days without data must be a whole number from 1 to 60."],
        digest: ["The digest must be daily, weekly or off."],
      });
      // Nothing of the refused request was kept.
      expect((await owner.client.api("GET", "/api/campaigns/alert-settings")).json().data.digest).toBe("daily");

      const saved = await saveSettings(owner.client, { rules: withThreshold("clicks-drop", 30), digest: "weekly" });
      expect(saved.json().data).toMatchObject({ digest: "weekly" });

      const group = await createGroup(owner.client, "Overrides");
      const unknown = await owner.client.api("PUT", `/api/campaigns/${group.id}`, {
        name: "Overrides",
        alert_overrides: [
          { id: "clicks-drop", threshold: 10 },
          { id: "no-such-rule", enabled: false },
        ],
      });
      expect(unknown.statusCode).toBe(422);
      expect(unknown.json().errors).toEqual({ "alert_overrides.1.id": ["No alert rule of the company has this id."] });

      const patched = await owner.client.api("PUT", `/api/campaigns/${group.id}`, {
        name: "Overrides",
        alert_overrides: [
          { id: "clicks-drop", threshold: 10 },
          { id: "domain-rating-drop", enabled: false },
        ],
      });
      expect(patched.statusCode, patched.body).toBe(200);
      const answer: TCampaign = patched.json().data;
      expect(answer.alert_overrides).toEqual([
        { id: "clicks-drop", threshold: 10 },
        { id: "domain-rating-drop", enabled: false },
      ]);
      expect(answer.alert_rules.find((rule) => rule.id === "clicks-drop")?.threshold).toBe(10);
      expect(answer.alert_rules.find((rule) => rule.id === "domain-rating-drop")?.enabled).toBe(false);
      expect(answer.alert_rules.find((rule) => rule.id === "sessions-drop")?.threshold).toBe(20);

      // A member cannot change a group's overrides (they are part of the group, the admin's).
      const memberPut = await member.client.api("PUT", `/api/campaigns/${group.id}`, {
        name: "Overrides",
        alert_overrides: [],
      });
      expect(memberPut.statusCode).toBe(403);
      // [] clears them.
      const cleared = await owner.client.api("PUT", `/api/campaigns/${group.id}`, {
        name: "Overrides",
        alert_overrides: [],
      });
      expect(cleared.json().data.alert_overrides).toEqual([]);
    });

    it("a rule removed from the company or turned off resolves its open alerts at once", async () => {
      const owner = await buildOwner(env());
      const { group, drop } = await droppedGroup(owner);
      const sessions = () =>
        alertRows(env(), drop.id).then((rows) => rows.filter((row) => row.rule === "sessions-drop"));
      expect((await sessions()).map((row) => row.state)).toEqual(["open"]);
      await saveSettings(owner.client, {
        rules: DEFAULT_ALERT_RULES.filter((rule) => rule.id !== "sessions-drop"),
        digest: "daily",
      });
      await env().services.get("campaigns").alerts.evaluate(owner.company.id);
      expect((await sessions()).map((row) => row.state)).toEqual(["resolved"]);
      // Turned off (not deleted) resolves the same day too.
      const clicks = () => alertRows(env(), drop.id).then((rows) => rows.filter((row) => row.rule === "clicks-drop"));
      expect((await clicks()).map((row) => row.state)).toEqual(["open"]);
      await saveSettings(owner.client, {
        rules: DEFAULT_ALERT_RULES.filter((rule) => rule.id !== "sessions-drop").map((rule) =>
          rule.id === "clicks-drop" ? { ...rule, enabled: false } : rule,
        ),
        digest: "daily",
      });
      await env().services.get("campaigns").alerts.evaluate(owner.company.id);
      expect((await clicks()).map((row) => row.state)).toEqual(["resolved"]);
      const shown = await showGroup(owner.client, group.id);
      expect(rulesOf(shown.domains.find((domain) => domain.id === drop.id) as never)).not.toContain("sessions-drop");
    });

    it("the digest goes to the company's admins once per period, in its time zone, with new and still-open alerts", async () => {
      const owner = await buildOwner(env(), {
        company: { name: "Digest Agency" },
        user: { email: "owner@digest.example", timezone: "Europe/Berlin" },
      });
      await buildMember(env(), { company: owner.company, role: "user", email: "member@digest.example" });
      await buildMember(env(), { company: owner.company, role: "admin", email: "second-admin@digest.example" });
      const { group } = await droppedGroup(owner, "Digest clients");
      const jobs = env().services.get("campaigns").alertJobs;
      const mine = () => sink.received.filter((mail) => mail.to.includes("owner@digest.example"));
      const queued = async () =>
        (await env().ctx.jobs.list(DIGEST_JOB, "waiting", 1000)).filter(
          (job) => (job.payload as { companyId: string }).companyId === owner.company.id,
        );

      // 06:30 UTC is 07:30 in Berlin: not due yet.
      clock.set("2026-11-27T06:30:00Z");
      await jobs.scheduleDue();
      expect(await queued()).toEqual([]);
      clock.set("2026-11-27T07:05:00Z");
      await jobs.scheduleDue();
      await jobs.scheduleDue();
      const [job] = await queued();
      expect(await queued()).toHaveLength(1);
      expect(job.payload).toEqual({ companyId: owner.company.id, period: "daily:2026-11-27" });

      expect(await jobs.sendDigest(job.payload as never)).toBe(true);
      // A second run of the same period (a retry, another worker) sends nothing.
      expect(await jobs.sendDigest(job.payload as never)).toBe(false);
      const mails: ReceivedMail[] = mine();
      expect(mails).toHaveLength(1);
      const [mail] = mails;
      expect(mail.to.sort()).toEqual(["owner@digest.example", "second-admin@digest.example"]);
      expect(mail.parsed.subject).toMatch(/^Mission Control daily digest: \d+ new alerts, \d+ open on 1 domain$/);
      expect(mail.parsed.from?.value[0].name).toBe("Digest Agency");
      const text = mail.parsed.text ?? "";
      expect(text).toContain(`Digest clients (http://127.0.0.1:3000/groups/${group.id})`);
      expect(text).toContain("drop-acme.com");
      expect(text).toMatch(/\[NEW\] Clicks fell from [\d,]+ to [\d,]+/);
      expect(mail.parsed.html).toContain("Domains that need attention");
      expect(mail.parsed.html).toContain(">NEW<");

      // The next day the same alerts are still open, no longer new.
      clock.set("2026-11-28T09:00:00Z");
      await jobs.scheduleDue();
      const next = (await queued()).find(
        (entry) => (entry.payload as { period: string }).period === "daily:2026-11-28",
      );
      expect(next).toBeDefined();
      await jobs.sendDigest(next?.payload as never);
      const second = mine()[1];
      expect(second.parsed.subject).toMatch(/^Mission Control daily digest: \d+ open alerts on 1 domain$/);
      expect(second.parsed.text).not.toContain("[NEW]");

      // Off: nothing is queued any more.
      await saveSettings(owner.client, { rules: [...DEFAULT_ALERT_RULES], digest: "off" });
      clock.set("2026-11-29T09:00:00Z");
      await jobs.scheduleDue();
      expect(
        (await queued()).some((entry) => (entry.payload as { period: string }).period === "daily:2026-11-29"),
      ).toBe(false);
    });

    it("a digest with every domain snoozed is not sent", async () => {
      const owner = await buildOwner(env(), { user: { email: "quiet@digest.example", timezone: "UTC" } });
      const { group, drop, healthy } = await droppedGroup(owner, "Quiet");
      for (const domain of [drop, healthy]) {
        await owner.client.api("POST", `/api/campaigns/${group.id}/domains/${domain.id}/snooze`, {});
      }
      const jobs = env().services.get("campaigns").alertJobs;
      expect(await jobs.sendDigest({ companyId: owner.company.id, period: "daily:2026-11-26" })).toBe(false);
      expect(sink.received.filter((mail) => mail.to.includes("quiet@digest.example"))).toEqual([]);
    });

    it("adding a domain, switching to 30 days and snoozing are told to the onboarding work", async () => {
      onboarding.length = 0;
      const owner = await buildOwner(env());
      const group = await createGroup(owner.client, "Onboarding");
      const domain = await addDomain(owner.client, group.id, "initech.com");
      await owner.client.api("GET", `/api/campaigns/${group.id}?window=30`);
      await owner.client.api("POST", `/api/campaigns/${group.id}/domains/${domain.id}/snooze`, {});
      expect(onboarding.filter((event) => event.companyId === owner.company.id)).toEqual(
        ["domain_added", "window_switched", "domain_snoozed"].map((event) => ({
          companyId: owner.company.id,
          userId: owner.user.id,
          flow: "mc",
          event,
        })),
      );
    });
  },
  async () => {
    sink = await startSmtpSink();
    return { SMTP_URL: sink.url, APP_URL: "http://127.0.0.1:3000" };
  },
);
