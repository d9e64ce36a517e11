import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDb } from "../../../test/harness";
import { type ReceivedMail, startSmtpSink } from "../../../test/smtp-sink";
import { reportMail } from "../automatic-reports/report-mail";
import { mondayAfterTheCollapse, sendHarborReport } from "./test-helpers";

const MAIL = {
  companyName: "Agency",
  dashboardName: "Harbor",
  periodText: "Oct 19, 2026 - Oct 25, 2026",
  rangeLabel: "Last week",
  scheduleText: "Every week",
  dashboardUrl: "http://127.0.0.1:3000/dashboards/x",
  pdfFilename: null,
  late: false,
};

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
const mailsFor = (name: string): ReceivedMail[] =>
  sink.received.filter((mail) => mail.parsed.subject?.startsWith(`${name} – `));

describeEachDb(
  "automatic insights in a report's e-mail",
  (env) => {
    beforeAll(() => mondayAfterTheCollapse(env()));
    afterAll(async () => {
      await sink.close();
    });

    async function sendReport(name: string, insightsSummary: boolean) {
      const { dashboard, mail } = await sendHarborReport(env(), mailsFor, { name, insightsSummary });
      const insights = await env()
        .services.get("insights")
        .forViewer(
          null,
          dashboard.permalink,
          { startDate: "2026-10-19", endDate: "2026-10-25", timezone: "UTC" },
          null,
          "",
          null,
        );
      return { mail, insights };
    }

    it("the dashboard's summary is in the mail, in the dashboard's own words, above the preview", async () => {
      const { mail, insights } = await sendReport("Harbor Weekly", true);
      expect(mail.parsed.subject).toBe("Harbor Weekly – report for Oct 19, 2026 - Oct 25, 2026");
      expect(insights.summary.length).toBeGreaterThan(0);
      const [first] = insights.summary;
      expect(first.sentence).toMatch(/^Sessions down .* vs Oct 12 – Oct 18; Organic Search contributed −/);
      expect(mail.parsed.text).toContain(`Insights:\n1. ${first.sentence}`);
      expect(String(mail.parsed.html)).toContain("<strong>Insights</strong>");
      // The template puts the summary above the preview image when there is one.
      const html = reportMail({ ...MAIL, previewCid: "preview@x", insights: [first.sentence] }).html;
      expect(html.indexOf("<strong>Insights</strong>")).toBeGreaterThan(0);
      expect(html.indexOf("<strong>Insights</strong>")).toBeLessThan(html.indexOf('src="cid:preview@x"'));
    });

    it("no summary when the dashboard's setting is off", async () => {
      const { mail } = await sendReport("Harbor Quiet", false);
      expect(mail.parsed.text).not.toContain("Insights:");
      expect(String(mail.parsed.html)).not.toContain("<strong>Insights</strong>");
    });
  },
  async () => {
    sink = await startSmtpSink();
    return { SMTP_URL: sink.url, APP_URL: "http://127.0.0.1:3000" };
  },
);
