import path from "node:path";
import { expect, type Page, test } from "./fixtures";
import { SCREENSHOTS, snap, uniqueEmail } from "./support";
import { call } from "./support-api";
import { PASSWORD, signUp } from "./support-auth";
import { addWidget, connectDemo, editModeSwitch, enterEditMode, widgetDrawer } from "./support-dashboard";
import { ACME, DASHBOARD_DONE, expectHint, onboardingHint, onboardingPanel, pickDateRange } from "./support-onboarding";

const BLOCKED = "Please complete current step to continue.";
const MC_DONE = "Your first domain has been added to your group, and you can now track its weekly and monthly changes!";

const panel = onboardingPanel;
const checklist = (page: Page) => panel(page).getByRole("list");
const hint = onboardingHint;
const getStarted = (page: Page) => page.getByRole("button", { name: "Get Started" });

/** What the viewport shows (the panel and hints are fixed to it, so a full-page picture would misplace them). */
async function shot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

/** The step the server has saved for the signed-in user (the page data the next load starts from). */
async function savedStep(page: Page): Promise<number | undefined> {
  return (await savedOnboarding(page))?.step;
}

/** The page data's onboarding: the registration's flow, the step and the intro's answer. */
async function savedOnboarding(page: Page) {
  const data = (await call(page, "GET", "/api/page-data")) as {
    onboarding: { flow: string; step: number; source: string | null } | null;
  };
  return data.onboarding;
}

/** Guard 4: the navigation is cancelled and the message modal says why; its OK closes it. */
async function expectHeld(page: Page, url: RegExp, stepHint: string) {
  const modal = page.getByRole("dialog", { name: "Getting started" });
  await expect(modal).toContainText(`${BLOCKED} ${stepHint}`);
  await expect(page).toHaveURL(url);
  await modal.getByRole("button", { name: "OK" }).click();
  await expect(modal).toBeHidden();
}

test("a new user is guided through the dashboard flow, step by step, with its hints", async ({ page }) => {
  await signUp(page, "Olga Onboard", { onboarding: true });
  expect(await savedStep(page)).toBe(1);
  await expect(panel(page)).toBeVisible();
  await expect(panel(page)).toContainText("0 of 5 done");
  await expect(panel(page).locator('[aria-current="step"]')).toContainText("Create a dashboard");
  // Get Started folds the checklist away and brings it back.
  await expect(checklist(page)).toBeVisible();
  await getStarted(page).click();
  await expect(checklist(page)).toBeHidden();
  await getStarted(page).click();
  await expect(checklist(page)).toBeVisible();

  // Step 1 does not hold the user anywhere but on the create page.
  await page.goto("/company/sources");
  await page.goto("/dashboards/create");
  // The onboarding runtime loads after the page: the panel says it is there.
  await expect(panel(page)).toBeVisible();
  await page.getByRole("navigation").getByRole("link", { name: "Dashboards" }).click();
  await expectHeld(page, /\/dashboards\/create$/, "Create your first dashboard.");

  await page.getByLabel("Dashboard name").fill("First report");
  await page.getByRole("radio", { name: "Blank dashboard" }).click();
  await page.getByRole("button", { name: "Create dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboards\/(?!create)[A-Za-z0-9_-]+$/);
  const dashboardPath = new URL(page.url()).pathname;

  // Step 2: the source hint hangs from Add widget in edit mode, and the dashboard holds the user.
  await expect(editModeSwitch(page)).toBeChecked();
  await expectHint(page, "Set a data source for your dashboard.");
  await expect(panel(page)).toContainText("1 of 5 done");
  await snap(page, "onboarding-source-hint");
  await page.getByRole("link", { name: "All dashboards" }).click();
  await expectHeld(page, new RegExp(`${dashboardPath}$`), "Set a data source for your dashboard.");
  // Without a source the user is not trapped: the widget form's link leads to Company Sources, where the
  // step is done, and back.
  await page.getByRole("button", { name: "Add widget" }).click();
  await widgetDrawer(page).getByRole("link", { name: "Company Sources" }).click();
  await expect(page).toHaveURL(/\/company\/sources$/);
  await expect(page.getByRole("dialog", { name: "Getting started" })).toBeHidden();
  await connectDemo(page);
  await page.goto(dashboardPath);
  await enterEditMode(page);
  await expectHint(page, "Set a data source for your dashboard.");
  await addWidget(page, {
    source: "Demo data",
    type: "Website analytics",
    property: ACME,
    metrics: ["Sessions", "Users"],
    title: "Visitors",
    format: "Summary",
  });

  // Step 3: reporting mode.
  await expectHint(page, "Switch off edit mode to see your dashboard in reporting mode.");
  await snap(page, "onboarding-hint");
  await editModeSwitch(page).click();
  await expect(editModeSwitch(page)).not.toBeChecked();

  // Step 4: the date range; the step is saved, so a reload comes back to it.
  await expectHint(page, "Pick the date range your report shows.");
  await expect.poll(() => savedStep(page)).toBe(4);
  await page.reload();
  await expectHint(page, "Pick the date range your report shows.");
  await expect(panel(page)).toContainText("3 of 5 done");
  await snap(page, "onboarding-panel");
  // The ok button closes a hint without doing the step; the panel still names it.
  await hint(page).getByRole("button", { name: "OK" }).click();
  await expect(hint(page)).toBeHidden();
  await expect(panel(page).locator('[aria-current="step"]')).toContainText("Set a date range");

  await pickDateRange(page);

  // Step 5: share; copying the link finishes the flow.
  await expectHint(page, "Copy the dashboard's URL or download it as a PDF to share it.");
  await page.getByRole("button", { name: "Copy URL" }).click();
  // The copy that finishes the flow is confirmed like any other, before the flow's end rebuilds the header.
  await expect(page.getByRole("tooltip", { name: "Copied successfully" })).toBeVisible();
  const done = page.getByRole("dialog", { name: "Congratulations!" });
  await expect(done).toContainText(DASHBOARD_DONE);
  await snap(page, "onboarding-congratulations");
  await done.getByRole("button", { name: "OK" }).click();
  await expect(panel(page)).toBeHidden();
  await expect(getStarted(page)).toHaveCount(0);
  await expect.poll(() => savedStep(page)).toBe(6);

  // Finished stays finished: no panel, no hints, nothing holds the user.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "First report" })).toBeVisible();
  await expect(getStarted(page)).toHaveCount(0);
  await expect(hint(page)).toHaveCount(0);
});

test("the Getting started panel and a hint on a phone", async ({ page }) => {
  await signUp(page, "Pia Phone", { onboarding: true });
  await connectDemo(page);
  await page.goto("/dashboards/create");
  await page.getByLabel("Dashboard name").fill("Phone report");
  await page.getByRole("radio", { name: "Blank dashboard" }).click();
  await page.getByRole("button", { name: "Create dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboards\/(?!create)[A-Za-z0-9_-]+$/);
  await expectHint(page, "Set a data source for your dashboard.");

  // On to the date range (step 4) as saved by another tab: its hint hangs from the header's picker.
  await call(page, "POST", "/api/user/data", { onboarding: 4 });
  await page.reload();
  await expectHint(page, "Pick the date range your report shows.");
  await shot(page, "onboarding-desktop-hint");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  // On a phone the panel starts folded to one line above the dashboard.
  await expect(getStarted(page)).toBeVisible();
  await expect(checklist(page)).toBeHidden();
  await expectHint(page, "Pick the date range your report shows.");
  await shot(page, "onboarding-phone-hint");
  await getStarted(page).click();
  await expect(checklist(page)).toBeVisible();
  await shot(page, "onboarding-phone-panel");
  await getStarted(page).click();
  await expect(checklist(page)).toBeHidden();
});

test("a dashboard created before the onboarding runtime arrived still moves the flow on to its source hint", async ({
  page,
}) => {
  // The runtime (store, hints, panel) is a chunk loaded after the page. A user quicker than the network
  // used to create the dashboard unheard, and never saw the next hint: hold the chunk until after the
  // click to make that moment certain.
  await signUp(page, "Quentin Quick", { onboarding: true });
  await connectDemo(page);
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = false;
  await page.route(/\/assets\/runtime-[\w-]+\.js$/, async (route) => {
    held = true;
    await released;
    await route.continue();
  });
  await page.goto("/dashboards/create");
  await page.getByLabel("Dashboard name").fill("Quick report");
  await page.getByRole("radio", { name: "Blank dashboard" }).click();
  await page.getByRole("button", { name: "Create dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboards\/(?!create)[A-Za-z0-9_-]+$/);
  await expect(editModeSwitch(page)).toBeChecked();
  expect(held).toBe(true);
  await expect(panel(page)).toHaveCount(0);

  release();
  await expectHint(page, "Set a data source for your dashboard.");
  await expect(panel(page)).toContainText("1 of 5 done");
  await expect.poll(() => savedStep(page)).toBe(2);
});

test("the intro asks what to do first, answered by keyboard, and the answer picks where the user starts", async ({
  page,
}) => {
  // Registered from ?source=mc: Mission Control is preselected.
  await page.goto("/register?source=mc");
  const form = { name: "Ines Intro", email: uniqueEmail("intro"), password: PASSWORD, password_confirmation: PASSWORD };
  await call(page, "POST", "/register", { ...form, terms_consent: true, age_consent: true, flow: "mc" });
  await page.goto("/intro");
  const question = page.getByRole("radiogroup", { name: "What do you want to do first?" });
  const dashboards = question.getByRole("radio", { name: "Build reporting dashboards for my clients" });
  const missionControl = question.getByRole("radio", { name: "Watch my clients' domains in Mission Control" });
  await expect(missionControl).toBeChecked();
  await expect(page.getByText("Next: create your first group of domains.")).toBeVisible();
  await snap(page, "intro-questionnaire");

  // The arrow keys move the answer; the line under Continue follows it.
  await missionControl.focus();
  await page.keyboard.press("ArrowUp");
  await expect(dashboards).toBeChecked();
  await expect(dashboards).toBeFocused();
  await expect(page.getByText("Next: connect your first data source.")).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, "intro-questionnaire-phone");

  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/company\/sources$/);
  expect(await savedOnboarding(page)).toMatchObject({ flow: "mc", step: 1, source: "dashboard" });
  // The dashboard flow runs, though the registration asked for Mission Control.
  await expect(panel(page)).toContainText("0 of 5 done");
  await expect(panel(page).locator('[aria-current="step"]')).toContainText("Create a dashboard");
});

test("a new user who chooses Mission Control on the intro creates a group, adds a domain, switches 7/30 days and snoozes", async ({
  page,
}) => {
  // Registered without ?source=mc: the intro's answer alone picks the flow, and leads to the group form.
  await signUp(page, "Mia Mission", { onboarding: true, missionControl: true });
  expect(await savedOnboarding(page)).toMatchObject({ flow: "dashboard", step: 1, source: "mc" });
  await expect(panel(page)).toBeVisible();
  await expect(panel(page)).toContainText("0 of 4 done");
  await expect(panel(page).locator('[aria-current="step"]')).toContainText("Create a group");
  await page.getByRole("navigation").getByRole("link", { name: "Dashboards" }).click();
  await expectHeld(page, /\/groups\/create$/, "Create your first group.");
  await page.getByLabel("Group name").fill("Client sites");
  await page.getByRole("radio", { name: /^Demo data/ }).check();
  await page.getByRole("button", { name: "Create group" }).click();
  await expect(page).toHaveURL(/\/groups\/(?!create$)[^/]+$/);
  const groupPath = new URL(page.url()).pathname;

  await expectHint(page, "Add the first domain to track in this group.");
  await page.getByRole("navigation").getByRole("link", { name: "Dashboards" }).click();
  await expectHeld(page, new RegExp(`${groupPath}$`), "Add the first domain to track in this group.");
  await page.getByLabel("Domain", { exact: true }).fill("acme.com");
  await page.getByRole("button", { name: "Add domain" }).click();
  await expect(page.locator('tr[data-domain="acme.com"]')).toBeVisible();

  await expectHint(page, "Switch between the last 7 and the last 30 days.");
  await snap(page, "onboarding-mc-hint");
  await page.getByRole("radiogroup", { name: "Change window" }).getByText("Last 30 days").click();

  await expectHint(page, "Snooze a domain's alerts for a week.");
  await page.locator('tr[data-domain="acme.com"]').getByRole("button", { name: "Snooze for a week" }).click();
  const done = page.getByRole("dialog", { name: "Congratulations!" });
  await expect(done).toContainText(MC_DONE);
  await done.getByRole("button", { name: "OK" }).click();
  await expect(getStarted(page)).toHaveCount(0);
  await expect.poll(() => savedStep(page)).toBe(5);
});
