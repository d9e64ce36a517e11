import { describe, expect, it } from "vitest";
import { widgetAlertMail } from "./alert-mail";

const input = {
  companyName: "Northwind <Agency>",
  dashboardName: "Acme & Co",
  widgetTitle: "Key figures",
  ruleText: "Sessions below 1,500",
  message: "Sessions fell to 1,204, below 1,500",
  dashboardUrl: "https://app.example/dashboards/abc?x=1&y=2",
};

describe("widgetAlertMail", () => {
  it("says what happened first, where, by which rule, with the dashboard's link", () => {
    const mail = widgetAlertMail(input);
    expect(mail.subject).toBe("Alert: Sessions fell to 1,204, below 1,500 – Acme & Co");
    expect(mail.text.split("\n")).toEqual([
      "Northwind <Agency>",
      "",
      "Alert: Sessions fell to 1,204, below 1,500",
      "Acme & Co › Key figures",
      "Rule: Sessions below 1,500",
      "",
      "Open the live dashboard: https://app.example/dashboards/abc?x=1&y=2",
      "",
      "You receive this alert once when it opens, because Northwind <Agency> added your address to it. It can be paused or snoozed from the widget's menu on the dashboard.",
    ]);
  });

  it.each([
    ["the company", "Northwind &#60;Agency&#62;"],
    ["the dashboard", "Acme &#38; Co › Key figures"],
    ["the link", 'href="https://app.example/dashboards/abc?x=1&#38;y=2"'],
  ])("escapes %s in the HTML", (_name, escaped) => {
    expect(widgetAlertMail(input).html).toContain(escaped);
  });
});
