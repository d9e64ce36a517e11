import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TAutomaticReport } from "@app/core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildDashboard, buildOwner, buildReport, type Owner } from "../../../test/factories";
import { describeEachDb, type TestEnv } from "../../../test/harness";
import { type ReceivedMail, startSmtpSink } from "../../../test/smtp-sink";
import { freePort, until } from "../../../test/wait";
import { manualClock } from "../../infra/clock";
import { mailFromAddress } from "../../infra/mail";
import { DELIVERY_ATTEMPTS } from "./delivery";

function pdfText(bytes: Buffer): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "report-")), "report.pdf");
  fs.writeFileSync(file, bytes);
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

let sink: Awaited<ReturnType<typeof startSmtpSink>>;

async function reportsOf(owner: Owner): Promise<TAutomaticReport[]> {
  return (await owner.client.api("GET", "/api/automatic-reports")).json().data;
}

/** Mails the sink received for one report's dashboard (subjects name the dashboard). */
const mailsFor = (name: string): ReceivedMail[] =>
  sink.received.filter((mail) => mail.parsed.subject?.startsWith(`${name} – `));

describeEachDb(
  "automatic reports delivered to a real SMTP server",
  (env) => {
    let clock: ReturnType<typeof manualClock>;
    beforeAll(async () => {
      // Before every slot the tests set the clock to: a report is made at the clock's time, and one made after
      // a slot is not due for it (from the real 2026-12-01 07:00 UTC on, a clock started at the real time
      // made the first report after its slot).
      clock = manualClock(new Date("2026-11-30T12:00:00Z"));
      (env().ctx as TestEnv["ctx"] & { clock: typeof clock }).clock = clock;
      await env().ctx.jobs.start();
    });
    afterAll(async () => {
      await sink.close();
    });

    const runScheduler = () => env().services.get("reportDelivery").scheduleDue();

    it("a due monthly report goes out once: recipients, subject, sender, inline preview and the PDF with the widgets' numbers", async () => {
      const owner = await buildOwner(env(), { company: { name: "Northwind Agency" } });
      const dashboard = await buildDashboard(env(), {
        company: owner.company,
        name: "Acme Monthly",
        template: "website-overview",
      });
      await buildReport(env(), {
        company: owner.company,
        dashboard,
        input: {
          recipients: "ceo@client.example, cmo@client.example",
          timezone: "Europe/Berlin",
          with_pdf: true,
          with_preview: true,
        },
      });
      // 08:01 in Berlin on the first of the month: the 08:00 slot is due (07:00 UTC in winter).
      clock.set("2026-12-01T07:01:00Z");
      expect(await runScheduler()).toBeGreaterThanOrEqual(1);
      await until(() => mailsFor("Acme Monthly").length === 1, 90_000, 200);
      const [mail] = mailsFor("Acme Monthly");
      expect(mail.to.sort()).toEqual(["ceo@client.example", "cmo@client.example"]);
      // LAST_MONTH resolved at send time in the report's zone.
      expect(mail.parsed.subject).toBe("Acme Monthly – report for Nov 01, 2026 - Nov 30, 2026");
      expect(mail.parsed.from?.value[0]).toEqual({
        name: "Northwind Agency",
        address: mailFromAddress(env().ctx.config.mailFrom),
      });
      expect(mail.parsed.messageId).toMatch(/^<report-[^@]+@/);
      expect(mail.parsed.text).toContain("Open the live dashboard: http");
      const html = String(mail.parsed.html);
      const preview = mail.parsed.attachments.find((part) => part.contentType === "image/png");
      expect(preview?.contentId).toBeTruthy();
      expect(preview?.related).toBe(true);
      expect(html).toContain(`cid:${String(preview?.contentId).replace(/[<>]/g, "")}`);
      expect(preview?.content.subarray(1, 4).toString()).toBe("PNG");
      // MAIL_DUMP=dir keeps the mail as a browser shows it (preview inlined) and its PDF, to look at.
      if (process.env.MAIL_DUMP && preview) {
        const inlined = html.replace(/cid:[^"]+/, `data:image/png;base64,${preview.content.toString("base64")}`);
        fs.writeFileSync(path.join(process.env.MAIL_DUMP, "report-mail.html"), inlined);
      }
      const pdf = mail.parsed.attachments.find((part) => part.contentType === "application/pdf");
      if (process.env.MAIL_DUMP && pdf) fs.writeFileSync(path.join(process.env.MAIL_DUMP, "report.pdf"), pdf.content);
      expect(pdf?.filename).toBe("Acme Monthly 2026-11-01 to 2026-11-30.pdf");
      const text = pdfText(pdf?.content as Buffer);
      for (const title of ["Acme Monthly", "Key figures", "Channels", "Top pages"]) expect(text).toContain(title);
      expect(text).toContain("Nov 01, 2026 - Nov 30, 2026");
      expect(text).toMatch(/\d{1,3}(,\d{3})+/);

      // Another pass of the scheduler (another worker, a restart) sends nothing more.
      expect(await runScheduler()).toBe(0);
      const [report] = (await reportsOf(owner)).filter((r) => r.dashboard.name === "Acme Monthly");
      expect(report.last_result).toMatchObject({
        status: "sent",
        late: false,
        manual: false,
        error: null,
        scheduled_for: "2026-12-01T07:00:00.000Z",
      });
    });

    it("a slot missed while the service was down is sent once, marked late; send now is manual", async () => {
      const owner = await buildOwner(env());
      const dashboard = await buildDashboard(env(), { company: owner.company, name: "Weekly Pulse", template: "seo" });
      await buildReport(env(), {
        company: owner.company,
        dashboard,
        // Mondays 09:00 UTC, no attachments: the mail alone.
        input: {
          period: "WEEK",
          detail: 1,
          hour: 9,
          minute: 0,
          timezone: "UTC",
          with_preview: false,
          date_range: "LAST_WEEK",
        },
      });
      // Down from before Monday 7 Dec until Wednesday 16 Dec: two Mondays missed, one mail.
      clock.set("2026-12-16T10:00:00Z");
      await runScheduler();
      await until(() => mailsFor("Weekly Pulse").length === 1, 60_000, 200);
      expect(await runScheduler()).toBe(0);
      const [late] = mailsFor("Weekly Pulse");
      // The latest missed slot (Monday 14 Dec) and its own period, the week before it.
      expect(late.parsed.subject).toBe("Weekly Pulse – report for Dec 07, 2026 - Dec 13, 2026");
      expect(late.parsed.text).toContain("sent late");
      // The mail reaches the SMTP server before the delivery's result is written: waited for, as below.
      let [report] = (await reportsOf(owner)).filter((r) => r.dashboard.name === "Weekly Pulse");
      await until(async () => {
        [report] = (await reportsOf(owner)).filter((r) => r.dashboard.name === "Weekly Pulse");
        return report.last_result !== null;
      });
      expect(report.last_result).toMatchObject({
        status: "sent",
        late: true,
        scheduled_for: "2026-12-14T09:00:00.000Z",
      });

      const sent = await owner.client.api("POST", `/api/automatic-reports/${report.id}/send`, {});
      expect(sent.statusCode).toBe(200);
      await until(() => mailsFor("Weekly Pulse").length === 2, 60_000, 200);
      await until(async () => {
        [report] = (await reportsOf(owner)).filter((r) => r.dashboard.name === "Weekly Pulse");
        return report.last_result?.manual === true;
      });
      expect(report.last_result).toMatchObject({ status: "sent", late: false, manual: true });
      // Another company cannot send it.
      const stranger = await buildOwner(env());
      expect((await stranger.client.api("POST", `/api/automatic-reports/${report.id}/send`, {})).statusCode).toBe(404);
    });

    it("a refused delivery is retried with backoff, then shown as failed with the mail server's reason", async () => {
      const owner = await buildOwner(env());
      const dashboard = await buildDashboard(env(), { company: owner.company, name: "Bounce Board", template: "seo" });
      const report = await buildReport(env(), {
        company: owner.company,
        dashboard,
        input: { recipients: "bounce@refused.example", with_preview: false },
      });
      await owner.client.api("POST", `/api/automatic-reports/${report.id}/send`, {});
      let failed: TAutomaticReport | undefined;
      await until(
        async () => {
          [failed] = (await reportsOf(owner)).filter((r) => r.id === report.id);
          return failed?.last_result?.status === "failed";
        },
        60_000,
        500,
      );
      expect(failed?.last_result?.error).toMatch(/^The mail server refused the message \(550/);
      // The last attempt records the failure before the queue files the job as completed: wait for both.
      const completedJob = async () =>
        (await env().ctx.jobs.list("reports.send", "completed", 1000)).find((record) =>
          JSON.stringify(record.payload).includes(owner.company.id),
        );
      await until(async () => (await completedJob()) !== undefined, 10_000, 100);
      const job = await completedJob();
      expect(job?.attempts).toBe(DELIVERY_ATTEMPTS);
      expect(mailsFor("Bounce Board")).toEqual([]);
    }, 90_000);
  },
  async () => {
    sink = await startSmtpSink({ refuse: (address) => address.endsWith("@refused.example") });
    // Retries 20, 40 and 80 ms apart instead of 2, 4 and 8 s: the same attempts, without the wait.
    return {
      PORT: String(await freePort()),
      SMTP_URL: sink.url,
      APP_URL: "http://127.0.0.1:3000",
      REPORT_RETRY_BASE_MS: "20",
    };
  },
  { listen: true },
);
