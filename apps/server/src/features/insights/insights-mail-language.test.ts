import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDb } from "../../../test/harness";
import { type ReceivedMail, startSmtpSink } from "../../../test/smtp-sink";
import { mondayAfterTheCollapse, sendHarborReport } from "./test-helpers";

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
const mailsFor = (name: string): ReceivedMail[] =>
  sink.received.filter((mail) => mail.parsed.subject?.startsWith(`${name} – `));

/** A number as German groups it: "1.234" or "12.345,5", never "1,234". */
const GERMAN_NUMBER = /\d{1,3}(?:\.\d{3})+(?:,\d+)?/;

describeEachDb(
  "a report's e-mail in the dashboard's language",
  (env) => {
    beforeAll(() => mondayAfterTheCollapse(env()));
    afterAll(async () => {
      await sink.close();
    });

    it("a German client's e-mail reads in German: subject, body, plain text, formats, insights and labels", async () => {
      const name = "Harbor DE";
      const { mail } = await sendHarborReport(env(), mailsFor, { name, insightsSummary: true, language: "de" });
      const text = mail.parsed.text ?? "";
      const html = String(mail.parsed.html);

      expect(mail.parsed.subject).toBe("Harbor DE – Bericht für 19. Okt. 2026 – 25. Okt. 2026");
      expect(text).toContain("Letzte Woche: 19. Okt. 2026 – 25. Okt. 2026");
      expect(text).toContain("Live-Dashboard öffnen: http://127.0.0.1:3000/dashboards/");
      expect(text).toMatch(/Sie erhalten diesen Bericht, weil .+ Ihre Adresse hinzugefügt hat\./);
      // The summary: the German sentence, the metric's German label, German numbers and dates; the
      // dimension values are the data's own words.
      const insight = text.match(/Erkenntnisse:\n1\. (.+)/)?.[1] ?? "";
      expect(insight).toMatch(
        /^Sitzungen um [\d,]+\u00a0% gesunken \(−[\d.]+\) vs\. 12\. Okt\. – 18\. Okt\.; Organic Search trug −[\d.]+ bei/,
      );
      expect(insight).toMatch(GERMAN_NUMBER);
      expect(insight).not.toMatch(/\d,\d{3}\b/);
      // The HTML part says the same, in a document that declares its language.
      expect(html).toContain('<html lang="de">');
      expect(html).toContain("<strong>Erkenntnisse</strong>");
      expect(html).toContain("Letzte Woche: <strong>19. Okt. 2026 – 25. Okt. 2026</strong>");
      expect(html).toContain(">Live-Dashboard öffnen</a>");
      expect(html).toContain(insight.replace(/'/g, "&#39;"));
      // Nothing of ours left in English.
      for (const english of [
        "report for",
        "Open the live dashboard",
        "You receive this report",
        "Insights",
        "Last Week",
      ]) {
        expect(text).not.toContain(english);
        expect(html).not.toContain(english);
      }
    });
  },
  async () => {
    sink = await startSmtpSink();
    return { SMTP_URL: sink.url, APP_URL: "http://127.0.0.1:3000" };
  },
);
