import path from "node:path";
import Database from "better-sqlite3";
import { expect, type Page, test } from "./fixtures";
import { recordRealtime, SCREENSHOTS, snap } from "./support";
import { signUp } from "./support-auth";
import { connectDemo, createTemplateDashboard, enterEditMode, readyWidget } from "./support-dashboard";

test("Alert me when…: from a widget's menu, the server's 422 under its field, then created, snoozed, paused and deleted", async ({
  page,
}) => {
  await signUp(page);
  await connectDemo(page);
  const { permalink } = await createTemplateDashboard(page, "Alerted client");
  await page.goto(`/dashboards/${permalink}`);
  await enterEditMode(page);
  const card = await readyWidget(page, "Key figures");
  await card.getByRole("button", { name: "Widget menu" }).click();
  await page.getByRole("menuitem", { name: "Alert me when…" }).click();

  const modal = page.getByRole("dialog", { name: "Alerts: Key figures" });
  await expect(modal.getByText("No alerts on this widget yet.")).toBeVisible();
  // The metric select offers the widget's metrics by their labels in its data.
  await expect(modal.getByLabel("Metric", { exact: true })).toHaveValue("Sessions");
  await modal.getByLabel("Value", { exact: true }).fill("1,500");
  await modal.getByLabel("Recipients", { exact: true }).fill("ceo@client.example, nobody@");
  await modal.getByRole("button", { name: "Create alert" }).click();
  await expect(modal.getByText("'nobody@' is not a valid email address.")).toBeVisible();
  await snap(page, "widget-alerts-422");

  await modal.getByLabel("Recipients", { exact: true }).fill("ceo@client.example");
  await modal.getByRole("button", { name: "Create alert" }).click();
  const list = modal.getByRole("list", { name: "Alerts of this widget" });
  await expect(list.getByText("Sessions below 1,500")).toBeVisible();
  await expect(list.getByText("Not checked yet")).toBeVisible();

  await list.getByRole("button", { name: "Snooze a week" }).click();
  await expect(list.getByText(/^Snoozed until /)).toBeVisible();
  await snap(page, "widget-alerts-snoozed");
  // On a phone the list's actions wrap under the rule rather than squeezing it.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(list.getByRole("button", { name: "Un-snooze" })).toBeVisible();
  await page.screenshot({ path: "screenshots/widget-alerts-phone.png" });
  await page.setViewportSize({ width: 1280, height: 800 });
  await list.getByRole("button", { name: "Un-snooze" }).click();
  await list.getByRole("button", { name: "Pause" }).click();
  await expect(list.getByText("Paused")).toBeVisible();
  await list.getByRole("button", { name: "Delete" }).click();
  await expect(modal.getByText("No alerts on this widget yet.")).toBeVisible();
});

/** A rule that fires on the Demo's numbers at its first evaluation. */
const SESSIONS_ABOVE_ONE = { metric: "a.sessions", condition: "above", value: 1, recipients: "ceo@client.example" };

/**
 * The page's loads of a new document from now on: a live update must come without one. Counted by the
 * document's request: `framenavigated` also fires for a same-document change of the address, which the
 * app's router makes as it starts (history.replaceState), after a server-rendered card is already ready.
 */
function reloadsOf(page: Page): string[] {
  const reloads: string[] = [];
  page.on("request", (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) reloads.push(request.url());
  });
  return reloads;
}

/** The hourly pass of widget alerts comes now: its schedule's next run moved into the past, as time would. */
function runHourlyPassNow() {
  const db = new Database(path.join(String(process.env.E2E_DATA_DIR), "reportz.sqlite"));
  try {
    db.pragma("busy_timeout = 5000");
    const changed = db
      .prepare("UPDATE job_schedules SET next_run_at = ? WHERE name = ?")
      .run(new Date(Date.now() - 1000).toISOString(), "widget-alerts.schedule");
    expect(changed.changes).toBe(1);
  } finally {
    db.close();
  }
}

/** A rule on the widget, as another member would make it (the API the modal calls). */
async function createAlertByApi(page: Page, permalink: string, widgetTitle: string, body: Record<string, unknown>) {
  return page.evaluate(
    async ({ permalink, widgetTitle, body }) => {
      const headers = {
        Accept: "application/json",
        "Content-Type": "application/json",
        "x-requested-with": "XMLHttpRequest",
        "x-identification": sessionStorage.getItem("identification") ?? "",
      };
      const shown = (await (await fetch(`/api/dashboards/${permalink}`, { headers })).json()) as {
        data: { id: string; widgets: { id: string; title: string }[] };
      };
      const widget = shown.data.widgets.find((each) => each.title === widgetTitle);
      const created = await fetch(`/api/dashboards/${shown.data.id}/widgets/${widget?.id}/alerts`, {
        method: "POST",
        body: JSON.stringify(body),
        headers,
      });
      return created.status;
    },
    { permalink, widgetTitle, body },
  );
}

test("a firing alert puts a bell on its card without a reload; the bell opens the widget's alerts; the public view has none", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // CI saw this bell never come (twice, never on a developer's machine): say what the page heard if so.
  const realtime = recordRealtime(page, /\/widget-alerts\//);
  await signUp(page);
  await connectDemo(page);
  const { permalink } = await createTemplateDashboard(page, "Watched client");
  await page.goto(`/dashboards/${permalink}`);
  const card = await readyWidget(page, "Key figures");
  const bell = card.getByRole("button", { name: /alerts? firing on/ });
  await expect(bell).toHaveCount(0);

  const reloads = reloadsOf(page);
  expect(await createAlertByApi(page, permalink, "Key figures", SESSIONS_ABOVE_ONE)).toBe(200);
  // Not judged yet: still no bell.
  await expect(bell).toHaveCount(0);
  runHourlyPassNow();

  // The evaluation opens the alert in the worker; the company channel tells the open page.
  await expect(card.getByRole("button", { name: "1 alert firing on Sessions" }))
    .toBeVisible({ timeout: 30_000 })
    .catch((error: unknown) => {
      realtime.print();
      throw error;
    });
  expect(reloads).toEqual([]);
  // Only the watched card has one.
  await expect(page.getByRole("button", { name: /alerts? firing on/ })).toHaveCount(1);
  await snap(page, "widget-alerts-badge-1280");
  // On a phone (the sidebar starts closed there): the bell beside a title that has to give way.
  const phone = await page.context().newPage();
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto(`/dashboards/${permalink}`);
  const phoneCard = await readyWidget(phone, "Key figures");
  await expect(phoneCard.getByRole("button", { name: "1 alert firing on Sessions" })).toBeVisible();
  await phoneCard.screenshot({ path: path.join(SCREENSHOTS, "widget-alerts-badge-card-390.png") });
  await phone.screenshot({ path: path.join(SCREENSHOTS, "widget-alerts-badge-390.png") });
  await phone.close();

  // The bell opens the widget's alerts, out of edit mode too.
  await bell.click();
  const modal = page.getByRole("dialog", { name: "Alerts: Key figures" });
  const list = modal.getByRole("list", { name: "Alerts of this widget" });
  await expect(list.getByText("Sessions above 1")).toBeVisible();
  await expect(list.getByText(/Sessions rose to [\d,]+, above 1/)).toBeVisible();

  // The client's public view of the same dashboard: the card, never the bell.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(`/dashboards/${permalink}`);
  const publicCard = await readyWidget(visitor, "Key figures");
  await expect(publicCard.getByText(/\d/).first()).toBeVisible();
  await expect(visitor.getByRole("button", { name: /alerts? firing on/ })).toHaveCount(0);
  await expect(visitor.locator(".dash-alert-badge")).toHaveCount(0);
  await visitor.close();
});

test("a dashboard whose realtime channel is heard only after its alert fired still shows the bell, without a reload", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signUp(page);
  await connectDemo(page);
  const { permalink } = await createTemplateDashboard(page, "Late listener");
  // The page's subscription to its company channel waits until the test lets it go: the events said
  // before it (the rule created, the alert opened) reach no socket of this page.
  let letSubscribe: () => void = () => {};
  const subscribing = new Promise<void>((resolve) => {
    letSubscribe = resolve;
  });
  let subscriptions = 0;
  await page.route(/\/broadcasting\/auth$/, async (route) => {
    await subscribing;
    subscriptions += 1;
    await route.continue();
  });
  // The cards' badges have asked for the open alerts (none yet) before anything fires.
  const badgesAsked = page.waitForResponse((response) => /\/widget-alerts\/open$/.test(response.url()));
  await page.goto(`/dashboards/${permalink}`);
  const card = await readyWidget(page, "Key figures");
  await badgesAsked;
  const reloads = reloadsOf(page);
  expect(await createAlertByApi(page, permalink, "Key figures", SESSIONS_ABOVE_ONE)).toBe(200);
  runHourlyPassNow();
  await expect.poll(() => openAlerts(permalink), { timeout: 30_000 }).toBe(1);
  await expect(card.getByRole("button", { name: /alerts? firing on/ })).toHaveCount(0);

  // Heard from now on: the page fetches again what the channel would have told it.
  letSubscribe();
  await expect.poll(() => subscriptions, { timeout: 15_000 }).toBe(1);
  await expect(card.getByRole("button", { name: "1 alert firing on Sessions" })).toBeVisible({ timeout: 15_000 });
  expect(reloads).toEqual([]);
});

/** How many alerts of the dashboard are open, by the server's own rows. */
function openAlerts(permalink: string): number {
  const db = new Database(path.join(String(process.env.E2E_DATA_DIR), "reportz.sqlite"), { readonly: true });
  try {
    db.pragma("busy_timeout = 5000");
    const row = db
      .prepare(
        "SELECT COUNT(*) AS open FROM widget_alerts a JOIN dashboards d ON d.id = a.dashboard_id WHERE d.permalink = ? AND a.state = 'open'",
      )
      .get(permalink) as { open: number };
    return row.open;
  } finally {
    db.close();
  }
}
