import {
  AUTOMATIC_REPORT_REFUSALS,
  formatInstantInZone,
  REPORT_MESSAGES,
  type TAutomaticReport,
  type TWidget,
} from "@app/core";
import { buildPassiveWidget } from "@app/core/widgets/test-fixtures";
import { expect, it } from "vitest";
import { buildDashboard, buildMember, buildOwner, buildReport } from "../../../test/factories";
import { describeEachDb, type TestClient } from "../../../test/harness";

/** The suite's PDF widget limit: small, so a dashboard above it is three notes. */
const MAX_PDF_WIDGETS = 2;

const notes = (count: number): TWidget[] =>
  Array.from({ length: count }, (_, index) =>
    buildPassiveWidget({ id: `n${index}`, order: index, hash: `n${index}`, title: `Note ${index}` }),
  );

async function listOf(client: TestClient): Promise<TAutomaticReport[]> {
  const response = await client.api("GET", "/api/automatic-reports");
  expect(response.statusCode).toBe(200);
  return response.json().data;
}

describeEachDb(
  "automatic reports API",
  (env) => {
    it("creates a report with the defaults of docs/product.md §9 in the user's time zone", async () => {
      const owner = await buildOwner(env(), { user: { timezone: "Europe/Berlin" } });
      const dashboard = await buildDashboard(env(), { company: owner.company, name: "Acme monthly" });
      const response = await owner.client.api("POST", "/api/automatic-reports", {
        dashboard_id: dashboard.id,
        recipients: "ceo@client.com, cmo@client.com",
      });
      expect(response.statusCode).toBe(200);
      const report: TAutomaticReport = response.json().data;
      expect(report).toMatchObject({
        dashboard_id: dashboard.id,
        dashboard: { id: dashboard.id, name: "Acme monthly", permalink: dashboard.permalink, widget_count: 0 },
        recipients: "ceo@client.com, cmo@client.com",
        period: "MONTH",
        detail: "FIRST_DAY",
        hour: 8,
        minute: 0,
        timezone: "Europe/Berlin",
        date_range: "LAST_MONTH",
        with_preview: true,
        with_pdf: false,
      });
      // Next run: the 1st of a month at 08:00 on Berlin's clock, in the future.
      expect(formatInstantInZone(new Date(report.next_run_at), "Europe/Berlin")).toMatch(
        /^[A-Z][a-z]{2} 01, \d{4} 08:00$/,
      );
      expect(Date.parse(report.next_run_at)).toBeGreaterThan(Date.now());
      expect(await listOf(owner.client)).toEqual([report]);

      // A zone sent with the payload wins over the user's, in its usual spelling; a list of {email} works too.
      const weekly = await owner.client.api("POST", "/api/automatic-reports", {
        dashboard_id: dashboard.id,
        recipients: [{ email: "ops@client.com" }],
        period: "WEEK",
        detail: 0,
        hour: 23,
        minute: 59,
        timezone: "america/new_york",
        date_range: "LAST_7_DAYS",
        with_pdf: true,
        with_preview: false,
      });
      expect(weekly.statusCode).toBe(200);
      expect(weekly.json().data).toMatchObject({
        recipients: "ops@client.com",
        period: "WEEK",
        detail: 0,
        hour: 23,
        minute: 59,
        timezone: "America/New_York",
        date_range: "LAST_7_DAYS",
        with_pdf: true,
        with_preview: false,
      });
      const next = new Date(weekly.json().data.next_run_at);
      expect(formatInstantInZone(next, "America/New_York")).toMatch(/ 23:59$/);
      expect(new Intl.DateTimeFormat("en-US", { weekday: "long", timeZone: "America/New_York" }).format(next)).toBe(
        "Sunday",
      );
    });

    it("answers 422 per field with the form's messages", async () => {
      const owner = await buildOwner(env());
      const dashboard = await buildDashboard(env(), { company: owner.company });
      const post = (body: Record<string, unknown>) => owner.client.api("POST", "/api/automatic-reports", body);
      const errorsOf = async (body: Record<string, unknown>) => {
        const response = await post(body);
        expect(response.statusCode).toBe(422);
        return response.json().errors as Record<string, string[]>;
      };

      expect(
        await errorsOf({
          dashboard_id: "",
          recipients: "",
          period: "DAY",
          hour: 24,
          minute: 60,
          timezone: "Mars/Olympus",
          date_range: "LAST_YEAR",
        }),
      ).toMatchObject({
        dashboard_id: [REPORT_MESSAGES.dashboard],
        recipients: [REPORT_MESSAGES.recipientsRequired],
        period: [REPORT_MESSAGES.period],
        hour: [REPORT_MESSAGES.hour],
        minute: [REPORT_MESSAGES.minute],
        timezone: [REPORT_MESSAGES.timezone],
        date_range: [REPORT_MESSAGES.dateRange],
      });
      const valid = { dashboard_id: dashboard.id, recipients: "a@client.com" };
      expect(await errorsOf({ dashboard_id: dashboard.id })).toEqual({
        recipients: [REPORT_MESSAGES.recipientsRequired],
      });
      expect(await errorsOf({ ...valid, recipients: "a@x.com, b@x.com, c@x.com, d@x.com, e@x.com, f@x.com" })).toEqual({
        recipients: [REPORT_MESSAGES.recipientsMax],
      });
      expect(await errorsOf({ ...valid, recipients: "a@x.com, not-an-address" })).toEqual({
        recipients: [REPORT_MESSAGES.recipientInvalid("not-an-address")],
      });
      expect(await errorsOf({ ...valid, hour: -1 })).toEqual({ hour: [REPORT_MESSAGES.hour] });
      expect(await errorsOf({ ...valid, hour: 7.5 })).toEqual({ hour: [REPORT_MESSAGES.hour] });
      expect(await errorsOf({ ...valid, minute: -1 })).toEqual({ minute: [REPORT_MESSAGES.minute] });
      expect(await errorsOf({ ...valid, period: "WEEK" })).toEqual({ detail: [REPORT_MESSAGES.weekDetail] });
      expect(await errorsOf({ ...valid, period: "WEEK", detail: 7 })).toEqual({ detail: [REPORT_MESSAGES.weekDetail] });
      expect(await errorsOf({ ...valid, period: "MONTH", detail: 3 })).toEqual({
        detail: [REPORT_MESSAGES.monthDetail],
      });
      // Timezones are names: a fixed offset would ignore daylight saving.
      expect(await errorsOf({ ...valid, timezone: "+02:00" })).toEqual({ timezone: [REPORT_MESSAGES.timezone] });

      // A dashboard that is not the company's is not a choice.
      const other = await buildOwner(env());
      const theirs = await buildDashboard(env(), { company: other.company });
      expect(await errorsOf({ ...valid, dashboard_id: theirs.id })).toEqual({
        dashboard_id: [AUTOMATIC_REPORT_REFUSALS.dashboardMissing],
      });
      expect(await errorsOf({ ...valid, dashboard_id: "no-such-dashboard" })).toEqual({
        dashboard_id: [AUTOMATIC_REPORT_REFUSALS.dashboardMissing],
      });
      expect(await listOf(owner.client)).toEqual([]);
      expect(await listOf(other.client)).toEqual([]);
    });

    it("allows 5 reports per dashboard, with the spec's message for a 6th (also when edited or sent together)", async () => {
      const owner = await buildOwner(env());
      const full = await buildDashboard(env(), { company: owner.company });
      const spare = await buildDashboard(env(), { company: owner.company });
      const made: TAutomaticReport[] = [];
      for (let index = 0; index < 5; index++) {
        made.push(await buildReport(env(), { company: owner.company, dashboard: full }));
      }
      const sixth = await owner.client.api("POST", "/api/automatic-reports", {
        dashboard_id: full.id,
        recipients: "six@client.com",
      });
      expect(sixth.statusCode).toBe(422);
      expect(sixth.json()).toMatchObject({
        message: "You can only set-up 5 automatic reports per dashboard. Remove one to continue.",
        errors: { general: ["You can only set-up 5 automatic reports per dashboard. Remove one to continue."] },
      });

      // One of the five may still be changed; a report of another dashboard may not move onto the full one.
      const edited = await owner.client.api("PUT", `/api/automatic-reports/${made[0].id}`, {
        dashboard_id: full.id,
        recipients: "changed@client.com",
      });
      expect(edited.statusCode).toBe(200);
      const elsewhere = await buildReport(env(), { company: owner.company, dashboard: spare });
      const moved = await owner.client.api("PUT", `/api/automatic-reports/${elsewhere.id}`, {
        dashboard_id: full.id,
        recipients: "moved@client.com",
      });
      expect(moved.statusCode).toBe(422);
      expect(moved.json().errors.general).toEqual([AUTOMATIC_REPORT_REFUSALS.perDashboardLimit]);

      // Removing one frees a place.
      expect((await owner.client.api("DELETE", `/api/automatic-reports/${made[1].id}`)).statusCode).toBe(204);
      expect(
        (await owner.client.api("POST", "/api/automatic-reports", { dashboard_id: full.id, recipients: "x@c.com" }))
          .statusCode,
      ).toBe(200);

      // Ten requests at once for an empty dashboard: exactly five take a place.
      const racing = await buildDashboard(env(), { company: owner.company });
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, n) =>
          owner.client.api("POST", "/api/automatic-reports", { dashboard_id: racing.id, recipients: `r${n}@c.com` }),
        ),
      );
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(5);
      expect(answers.filter((a) => a.statusCode === 422)).toHaveLength(5);
      expect((await listOf(owner.client)).filter((r) => r.dashboard_id === racing.id)).toHaveLength(5);
    });

    it("refuses the PDF option for a dashboard above the PDF widget limit", async () => {
      const owner = await buildOwner(env());
      const big = await buildDashboard(env(), { company: owner.company, widgets: notes(MAX_PDF_WIDGETS + 1) });
      const atLimit = await buildDashboard(env(), { company: owner.company, widgets: notes(MAX_PDF_WIDGETS) });
      const refused = await owner.client.api("POST", "/api/automatic-reports", {
        dashboard_id: big.id,
        recipients: "a@client.com",
        with_pdf: true,
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors).toEqual({
        with_pdf: [`PDF export is disabled for dashboards with more than ${MAX_PDF_WIDGETS} widgets.`],
      });
      // Without the PDF the big dashboard is fine; at the limit the PDF is fine.
      const withoutPdf = await owner.client.api("POST", "/api/automatic-reports", {
        dashboard_id: big.id,
        recipients: "a@client.com",
      });
      expect(withoutPdf.statusCode).toBe(200);
      expect(
        (
          await owner.client.api("POST", "/api/automatic-reports", {
            dashboard_id: atLimit.id,
            recipients: "a@client.com",
            with_pdf: true,
          })
        ).json().data.with_pdf,
      ).toBe(true);
      // Nor can an edit switch it on.
      const edit = await owner.client.api("PUT", `/api/automatic-reports/${withoutPdf.json().data.id}`, {
        dashboard_id: big.id,
        recipients: "a@client.com",
        with_pdf: true,
      });
      expect(edit.statusCode).toBe(422);
      expect(Object.keys(edit.json().errors)).toEqual(["with_pdf"]);
    });

    it("edits a report with the whole payload; without a timezone it keeps its own", async () => {
      const owner = await buildOwner(env(), { user: { timezone: "Europe/London" } });
      const first = await buildDashboard(env(), { company: owner.company, name: "First" });
      const second = await buildDashboard(env(), { company: owner.company, name: "Second" });
      const report = await buildReport(env(), {
        company: owner.company,
        dashboard: first,
        input: { timezone: "Pacific/Auckland" },
      });
      const response = await owner.client.api("PUT", `/api/automatic-reports/${report.id}`, {
        dashboard_id: second.id,
        recipients: "new@client.com; boss@client.com",
        period: "WEEK",
        detail: "1",
        hour: "17",
        minute: "30",
        date_range: "LAST_WEEK",
        with_pdf: true,
        with_preview: false,
      });
      expect(response.statusCode).toBe(200);
      const edited: TAutomaticReport = response.json().data;
      expect(edited).toMatchObject({
        id: report.id,
        dashboard: { id: second.id, name: "Second" },
        recipients: "new@client.com, boss@client.com",
        period: "WEEK",
        detail: 1,
        hour: 17,
        minute: 30,
        timezone: "Pacific/Auckland",
        date_range: "LAST_WEEK",
        with_pdf: true,
        with_preview: false,
        created_at: report.created_at,
      });
      expect(formatInstantInZone(new Date(edited.next_run_at), "Pacific/Auckland")).toMatch(/ 17:30$/);
      expect(await listOf(owner.client)).toEqual([edited]);
      // The first dashboard lost it, the second has it.
      const shown = async (permalink: string) =>
        (await owner.client.api("GET", `/api/dashboards/${permalink}`)).json().data.automaticReports;
      expect(await shown(first.permalink)).toEqual([]);
      expect(await shown(second.permalink)).toEqual([edited]);

      // Invalid edits change nothing.
      const bad = await owner.client.api("PUT", `/api/automatic-reports/${report.id}`, {
        dashboard_id: second.id,
        recipients: "",
        hour: 30,
      });
      expect(bad.statusCode).toBe(422);
      expect(Object.keys(bad.json().errors).sort()).toEqual(["hour", "recipients"]);
      expect(await listOf(owner.client)).toEqual([edited]);
      const missing = await owner.client.api("PUT", "/api/automatic-reports/nope", {
        dashboard_id: second.id,
        recipients: "a@client.com",
      });
      expect(missing.statusCode).toBe(404);
    });

    it("deletes a report, and deleting a dashboard deletes its reports", async () => {
      const owner = await buildOwner(env());
      const kept = await buildDashboard(env(), { company: owner.company });
      const doomed = await buildDashboard(env(), { company: owner.company });
      const a = await buildReport(env(), { company: owner.company, dashboard: kept });
      const b = await buildReport(env(), { company: owner.company, dashboard: kept });
      await buildReport(env(), { company: owner.company, dashboard: doomed });
      await buildReport(env(), { company: owner.company, dashboard: doomed });

      expect((await owner.client.api("DELETE", `/api/automatic-reports/${a.id}`)).statusCode).toBe(204);
      expect((await owner.client.api("DELETE", `/api/automatic-reports/${a.id}`)).statusCode).toBe(404);
      expect((await listOf(owner.client)).map((r) => r.id)).toHaveLength(3);

      expect((await owner.client.api("DELETE", `/api/dashboards/${doomed.id}`)).statusCode).toBe(204);
      expect((await listOf(owner.client)).map((r) => r.id)).toEqual([b.id]);
      const rows = await env()
        .ctx.db.selectFrom("automatic_reports")
        .select("id")
        .where("dashboard_id", "=", doomed.id)
        .execute();
      expect(rows).toEqual([]);
    });

    it("keeps each company to its own reports: lists, the dashboard payload, and 404 for another's", async () => {
      const agency = await buildOwner(env());
      const rival = await buildOwner(env());
      const ours = await buildDashboard(env(), { company: agency.company, name: "B ours" });
      const alsoOurs = await buildDashboard(env(), { company: agency.company, name: "A ours" });
      const theirs = await buildDashboard(env(), { company: rival.company });
      const r1 = await buildReport(env(), { company: agency.company, dashboard: ours });
      const r2 = await buildReport(env(), { company: agency.company, dashboard: alsoOurs });
      const r3 = await buildReport(env(), { company: agency.company, dashboard: ours });
      const foreign = await buildReport(env(), { company: rival.company, dashboard: theirs });

      // Sorted by dashboard name, then by creation.
      expect((await listOf(agency.client)).map((r) => r.id)).toEqual([r2.id, r1.id, r3.id]);
      expect((await listOf(rival.client)).map((r) => r.id)).toEqual([foreign.id]);

      // docs/product.md §6: the list is open to every user of the company, who may also schedule.
      const member = await buildMember(env(), { company: agency.company });
      expect((await listOf(member.client)).map((r) => r.id)).toEqual([r2.id, r1.id, r3.id]);
      const byMember = await member.client.api("POST", "/api/automatic-reports", {
        dashboard_id: alsoOurs.id,
        recipients: "m@client.com",
      });
      expect(byMember.statusCode).toBe(200);

      // The dashboard payload carries its own reports for members, none for a public viewer.
      const shown = await agency.client.api("GET", `/api/dashboards/${ours.permalink}`);
      expect(shown.json().data.automaticReports.map((r: TAutomaticReport) => r.id)).toEqual([r1.id, r3.id]);
      const publicView = await env().client().api("GET", `/api/dashboards/${ours.permalink}`);
      expect(publicView.statusCode).toBe(200);
      expect(publicView.headers["x-public"]).toBeDefined();
      expect(publicView.json().data.automaticReports).toEqual([]);
      const rivalView = await rival.client.api("GET", `/api/dashboards/${ours.permalink}`);
      expect(rivalView.json().data.automaticReports).toEqual([]);

      // Another company's report is not found, whatever is asked of it, and stays as it was.
      const edit = await agency.client.api("PUT", `/api/automatic-reports/${foreign.id}`, {
        dashboard_id: ours.id,
        recipients: "steal@x.com",
      });
      expect(edit.statusCode).toBe(404);
      expect((await agency.client.api("DELETE", `/api/automatic-reports/${foreign.id}`)).statusCode).toBe(404);
      expect(await listOf(rival.client)).toEqual([foreign]);

      // Visitors without a session are not let in.
      const anonymous = env().client();
      expect((await anonymous.api("GET", "/api/automatic-reports")).statusCode).toBe(401);
      expect(
        (await anonymous.api("POST", "/api/automatic-reports", { dashboard_id: ours.id, recipients: "a@b.com" }))
          .statusCode,
      ).toBe(401);
    });

    it("refuses new reports when the company may not create them (canCreateAutomaticReport)", async () => {
      const owner = await buildOwner(env(), { company: { state: "canceled", subscription_id: "sub_1" } });
      expect((await owner.client.api("GET", "/api/company")).json().data.canCreateAutomaticReport).toBe(false);
      const dashboard = await buildDashboard(env(), { company: owner.company });
      const response = await owner.client.api("POST", "/api/automatic-reports", {
        dashboard_id: dashboard.id,
        recipients: "a@client.com",
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        message: AUTOMATIC_REPORT_REFUSALS.notAllowed,
        errors: { general: [AUTOMATIC_REPORT_REFUSALS.notAllowed] },
      });
      expect(await listOf(owner.client)).toEqual([]);
    });
  },
  { MAX_PDF_WIDGETS: String(MAX_PDF_WIDGETS) },
);
