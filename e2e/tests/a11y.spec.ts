import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "./fixtures";
import { signUp } from "./support-auth";
import {
  addWidget,
  connectDemo,
  createDashboard,
  editModeSwitch,
  expectSaved,
  fillWidgetForm,
  readyWidget,
  uploadCsv,
  widgetDrawer,
} from "./support-dashboard";

const ACME = "acme-software.example (B2B software)";

/**
 * Runs axe-core on the page as it is now and fails on any serious or critical violation, naming each
 * rule with the elements that break it (so a failure says what to fix, not just how many).
 */
async function expectNoSeriousViolations(page: Page, screen: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      elements: violation.nodes.length,
      first: violation.nodes.slice(0, 5).map((node) => ({
        target: node.target.join(" "),
        why: node.failureSummary?.split("\n").slice(1).join(" ").trim(),
      })),
    }));
  expect.soft(serious, `${screen}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}

/** Both widths the product is looked at: a laptop and a phone. */
async function atBothWidths(page: Page, screen: string, settle: () => Promise<void>): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await settle();
  await expectNoSeriousViolations(page, `${screen} at 1280 px`);
  await page.setViewportSize({ width: 390, height: 844 });
  await settle();
  await expectNoSeriousViolations(page, `${screen} at 390 px`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("login and registration have no serious accessibility violations", async ({ page }) => {
  await page.goto("/login");
  await atBothWidths(page, "login", async () => {
    await expect(page.getByRole("button", { name: "Log in", exact: true })).toBeVisible();
  });
  await page.goto("/register");
  await atBothWidths(page, "registration", async () => {
    await expect(page.getByRole("button", { name: "Register" })).toBeVisible();
  });
});

test("the guest pages keep every part in a landmark, with one main (axe landmark-one-main and region)", async ({
  page,
}) => {
  for (const path of ["/login", "/register"]) {
    await page.goto(path);
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await expect(page.getByRole("main")).toBeVisible();
      // Moderate rules the serious-only sweep above leaves out: checked here by name.
      const { violations, passes } = await new AxeBuilder({ page })
        .withRules(["landmark-one-main", "region"])
        .analyze();
      const found = violations.map((violation) => ({
        rule: violation.id,
        elements: violation.nodes.map((node) => node.target.join(" ")),
      }));
      expect(found, `${path} at ${viewport.width} px`).toEqual([]);
      // Both rules ran and had something to judge (an empty run would pass too).
      expect(passes.map((pass) => pass.id).sort()).toEqual(["landmark-one-main", "region"]);
      await page.screenshot({ path: `screenshots/guest-landmarks${path.replace("/", "-")}-${viewport.width}.png` });
    }
  }
});

test("sources, dashboards list, a dashboard (owner and public) and the widget form have no serious accessibility violations", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await signUp(page);
  await atBothWidths(page, "sources (nothing connected)", async () => {
    await expect(page.getByRole("button", { name: "Connect Demo data" })).toBeVisible();
  });
  await connectDemo(page);
  await uploadCsv(page, "channels.csv", "Channel,Clicks,Cost\nSearch,120,45.5\nSocial,300,80\nEmail,75,20.25\n");
  await atBothWidths(page, "sources (Demo and CSV connected)", async () => {
    await expect(page.getByText("channels.csv").first()).toBeVisible();
  });

  const path = await createDashboard(page, "Accessible report");
  await addWidget(page, {
    source: "Demo data",
    type: "Website analytics",
    property: ACME,
    dimension: "Channel",
    metrics: ["Sessions", "Conversions", "Revenue"],
    title: "Traffic by channel",
    format: "Table",
    size: "2x2",
  });
  await addWidget(page, {
    source: "Demo data",
    type: "Website analytics",
    property: ACME,
    dimension: "Date",
    metrics: ["Sessions", "Users"],
    title: "Sessions over time",
    format: "Line Chart",
    size: "2x2",
  });
  await addWidget(page, {
    source: "Demo data",
    type: "Paid ads",
    property: ACME,
    metrics: ["Impressions", "Clicks", "Cost"],
    title: "Paid ads at a glance",
    format: "Summary",
  });
  await expectSaved(page);

  // The widget form, filled for a data widget, then for the CSV file with its yes/no questions.
  await page.getByRole("button", { name: "Add widget" }).click();
  await fillWidgetForm(page, {
    source: "Demo data",
    type: "Website analytics",
    property: ACME,
    dimension: "Country",
    metrics: ["Sessions"],
    title: "Sessions by country",
    format: "Bar Chart",
  });
  await expectNoSeriousViolations(page, "widget form (Demo)");
  await widgetDrawer(page).getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("button", { name: "Add widget" }).click();
  await fillWidgetForm(page, {
    source: "CSV upload",
    type: "CSV data",
    property: "channels.csv",
    dimension: "Channel",
    metrics: ["Clicks"],
    title: "Clicks by channel",
    format: "Table",
  });
  await expectNoSeriousViolations(page, "widget form (CSV)");
  await widgetDrawer(page).getByRole("button", { name: "Cancel" }).click();
  await expect(widgetDrawer(page)).toBeHidden();

  const titles = ["Traffic by channel", "Sessions over time", "Paid ads at a glance"];
  await editModeSwitch(page).click();
  await expect(editModeSwitch(page)).not.toBeChecked();
  await atBothWidths(page, "dashboard (owner)", async () => {
    for (const title of titles) await readyWidget(page, title);
  });

  await page.goto("/dashboards");
  await atBothWidths(page, "dashboards list", async () => {
    await expect(page.getByRole("article", { name: "Accessible report" })).toBeVisible();
  });

  // A client opening the shared link, not signed in.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(path);
  await atBothWidths(visitor, "dashboard (public)", async () => {
    for (const title of titles) await readyWidget(visitor, title);
  });
  await visitor.context().close();
});
