import { type Browser, type BrowserContext, type Cookie, expect, type Locator, type Page } from "@playwright/test";
import { invitationLink, uniqueEmail } from "./support";
import { signUp, skipOnboarding } from "./support-auth";

/** Company Sources → 'Connect Demo data'; waits until the Demo source shows as connected. */
export async function connectDemo(page: Page): Promise<void> {
  await page.goto("/company/sources");
  await page.getByRole("button", { name: "Connect Demo data" }).click();
  await expect(page.getByText("Connected").first()).toBeVisible();
}

/** Company Sources → picks a file in 'CSV file' and presses 'Upload CSV'; waits for the file to be listed. */
export async function uploadCsv(page: Page, name: string, text: string): Promise<void> {
  await page.goto("/company/sources");
  await page.getByLabel("CSV file").setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(text) });
  await page.getByRole("button", { name: "Upload CSV" }).click();
  await expect(page.getByText(name).first()).toBeVisible();
}

/** Creates a blank dashboard through the dashboards screen; ends on it. Returns its path (/dashboards/{permalink}). */
export async function createDashboard(page: Page, name: string): Promise<string> {
  await page.goto("/dashboards");
  await page.getByRole("link", { name: "Create dashboard" }).first().click();
  await expect(page).toHaveURL(/\/dashboards\/create$/);
  await page.getByLabel("Dashboard name").fill(name);
  await page.getByRole("radio", { name: "Blank dashboard" }).click();
  await page.getByRole("button", { name: "Create dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboards\/(?!create)[A-Za-z0-9_-]+(\?edit=1)?$/);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  return new URL(page.url()).pathname;
}

/** The 'Edit mode' switch of the dashboard sidebar. */
export function editModeSwitch(page: Page): Locator {
  return page.getByRole("complementary", { name: "Dashboard sidebar" }).getByRole("switch", { name: "Edit mode" });
}

/** Invites a colleague from Users; they set a password, give both consents and pass the intro. */
export async function inviteColleague(page: Page, browser: Browser, name: string): Promise<Page> {
  await page.goto("/company/users");
  await page.getByRole("button", { name: "Invite user" }).click();
  const dialog = page.getByRole("dialog", { name: "Invite user" });
  const email = uniqueEmail("colleague");
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("cell", { name: email })).toBeVisible();

  const link = await invitationLink(email);
  const colleague = await (await browser.newContext()).newPage();
  await colleague.goto(new URL(link).pathname);
  await colleague.getByLabel("Password", { exact: true }).fill("colleague-pass-1");
  await colleague.getByLabel("Confirm password").fill("colleague-pass-1");
  await colleague.getByRole("button", { name: "Set password" }).click();
  await expect(colleague).toHaveURL(/\/users\//);
  await colleague.getByLabel("I agree to the Terms and Conditions").check();
  await colleague.getByLabel("I confirm I am at least 16 years old").check();
  await colleague.getByRole("button", { name: "Save consents" }).click();
  await expect(colleague).toHaveURL(/\/intro$/);
  await skipOnboarding(colleague);
  await colleague.getByRole("button", { name: "Continue" }).click();
  await expect(colleague).toHaveURL(/\/company\/sources$/);
  return colleague;
}

/** Switches edit mode on (if it is not on yet) and waits for the 'Add widget' button. */
export async function enterEditMode(page: Page): Promise<void> {
  const toggle = editModeSwitch(page);
  await expect(toggle).toBeEnabled();
  if (!(await toggle.isChecked())) await toggle.click();
  await expect(toggle).toBeChecked();
  await expect(page.getByRole("button", { name: "Add widget" })).toBeVisible();
}

/** Opens a select (or multiselect) by its label and picks each option by name. */
export async function choose(page: Page, scope: Locator, label: string, ...options: string[]): Promise<void> {
  const field = scope.getByLabel(label, { exact: true });
  for (const option of options) {
    await field.click();
    await page.getByRole("option", { name: option, exact: true }).click();
  }
  // A multiselect keeps its list open; leave the field so the next one is reachable.
  if (options.length > 1) await scope.getByRole("heading", { name: /Add widget|Edit widget/ }).click();
}

export interface WidgetSpec {
  source: string;
  type: string;
  /** Site (Demo) or File (CSV). */
  property: string;
  /** Yes/No answers of boolean inputs, by label (CSV). */
  answers?: Record<string, "Yes" | "No">;
  dimension?: string;
  metrics: string[];
  title: string;
  format: "Line Chart" | "Area Chart" | "Bar Chart" | "Pie Chart" | "Radar Chart" | "Gauge" | "Table" | "Summary";
  size?: string;
  /** Table and series charts: the column to order by, and whether descending. */
  orderBy?: string;
  descending?: boolean;
  minValue?: number;
  maxValue?: number;
}

/** The widget drawer ('Add widget' / 'Edit widget'). */
export function widgetDrawer(page: Page): Locator {
  return page.getByRole("dialog", { name: /^(Add|Edit) widget$/ });
}

/** Fills the widget form as a person would, in the order the form shows its fields. */
export async function fillWidgetForm(page: Page, spec: WidgetSpec): Promise<Locator> {
  const drawer = widgetDrawer(page);
  await expect(drawer).toBeVisible();
  await choose(page, drawer, "Source", spec.source);
  await choose(page, drawer, "Widget type", spec.type);
  await choose(page, drawer, spec.source.startsWith("CSV") ? "File" : "Site", spec.property);
  if (spec.source.startsWith("CSV")) await choose(page, drawer, "Sheet", "Sheet 1");
  for (const [question, answer] of Object.entries(spec.answers ?? {})) {
    await drawer.getByRole("radiogroup", { name: question }).getByRole("radio", { name: answer }).check();
  }
  if (spec.dimension) await choose(page, drawer, "Dimension", spec.dimension);
  await choose(page, drawer, "Metrics", ...spec.metrics);
  await drawer.getByLabel("Title", { exact: true }).fill(spec.title);
  await choose(page, drawer, "Format", spec.format);
  if (spec.size) await choose(page, drawer, "Size", spec.size);
  if (spec.orderBy) await choose(page, drawer, "Order by", spec.orderBy);
  if (spec.descending) await drawer.getByRole("radiogroup", { name: "Direction" }).getByText("Descending").click();
  if (spec.minValue !== undefined) await drawer.getByLabel("Min value").fill(String(spec.minValue));
  if (spec.maxValue !== undefined) await drawer.getByLabel("Max value").fill(String(spec.maxValue));
  return drawer;
}

/**
 * Adds a data widget through the drawer and waits until its card has drawn its data. `beforeSave`
 * runs with the filled form still open (to take its screenshot).
 */
export async function addWidget(
  page: Page,
  spec: WidgetSpec,
  beforeSave?: (drawer: Locator) => Promise<void>,
): Promise<Locator> {
  await page.getByRole("button", { name: "Add widget" }).click();
  const drawer = await fillWidgetForm(page, spec);
  await beforeSave?.(drawer);
  const save = drawer.getByRole("button", { name: "Save" });
  await expect(save).toBeEnabled();
  await save.click();
  await expect(drawer).toBeHidden();
  return readyWidget(page, spec.title);
}

/** The widget card named `title`, once it has drawn its data. */
export async function readyWidget(page: Page, title: string): Promise<Locator> {
  const card = page.getByRole("main").getByRole("article", { name: title, exact: true });
  // A chart is drawn once it comes near the viewport, as for a reader scrolling to it. The card may be
  // drawn anew while the page settles (a detached element cannot be scrolled to): try again until ready.
  await expect(async () => {
    await card.scrollIntoViewIfNeeded({ timeout: 2_000 });
    await expect(card).toHaveAttribute("data-ready", "true", { timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  await expect(card).toHaveAttribute("data-state", "ready");
  return card;
}

/**
 * The chart card named `title`, once its live ECharts chart has drawn (`data-live` on the chart): a
 * member's chart is first its snapshot (an SVG, which makes the card ready) and goes live when the page
 * is idle (apps/web/src/features/widgets/charts/live-queue.ts). For what reads the chart's instance.
 */
export async function liveChartWidget(page: Page, title: string): Promise<Locator> {
  const card = await readyWidget(page, title);
  await expect(card.getByRole("img")).toHaveAttribute("data-live", "true", { timeout: 15_000 });
  return card;
}

/** Widget titles in the order the grid shows them. */
export function widgetTitles(page: Page): Locator {
  return page.getByRole("main").getByRole("article").getByRole("heading", { level: 2 });
}

/** Waits for the sidebar to report that the last change reached the server. */
export async function expectSaved(page: Page): Promise<void> {
  await expect(page.getByRole("complementary", { name: "Dashboard sidebar" }).getByRole("status")).toHaveText(
    "All changes saved",
  );
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** 'yyyy-MM-dd' as the picker shows it: 'Jan 05, 2026'. */
export function displayDay(day: string): string {
  const [year, month, date] = day.split("-");
  return `${MONTHS[Number(month) - 1]} ${date}, ${year}`;
}

/** The trigger text of a range: 'Jan 01, 2026 - Jan 07, 2026'. */
export function displayRange(startDate: string, endDate: string): string {
  return `${displayDay(startDate)} - ${displayDay(endDate)}`;
}

/** `days` days before today (UTC, the browser's and the server's zone in these tests) as 'yyyy-MM-dd'. */
export function daysAgo(days: number): string {
  const date = new Date();
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}

/** What the grid's screen-reader live region last announced about a drag. */
function dragAnnouncement(page: Page): Locator {
  return page.getByRole("status").filter({ hasText: /Picked up|is over position|was dropped|was cancelled/ });
}

/**
 * Moves a widget the keyboard way (focus its 'Drag to reorder' handle, Space, arrow keys, Space),
 * listening to the announcements as a screen-reader user would: each press must move it exactly one
 * position (Up and Left back, Down and Right forward, in reading order) until it is over `position`.
 */
export async function moveWidgetWithKeyboard(
  page: Page,
  title: string,
  key: "ArrowUp" | "ArrowDown" | "ArrowLeft" | "ArrowRight",
  position: number,
): Promise<void> {
  const card = page.getByRole("main").getByRole("article", { name: title, exact: true });
  // Where it starts: its place among the grid's cells.
  const start = await card.evaluate((element) => {
    const cell = element.closest(".dash-cell");
    return cell?.parentElement ? Array.from(cell.parentElement.children).indexOf(cell) + 1 : 0;
  });
  expect(start).toBeGreaterThan(0);
  await card.getByRole("button", { name: "Drag to reorder" }).focus();
  await page.keyboard.press("Space");
  const announced = dragAnnouncement(page);
  // Picking up announces the widget, then the place it is over (its own, at first).
  await expect(announced).toHaveText(
    new RegExp(`^(Picked up ${title}\\.|${title} is over position ${start} of \\d+\\.)$`),
  );
  const step = key === "ArrowUp" || key === "ArrowLeft" ? -1 : 1;
  for (let at = start; at !== position; at += step) {
    await page.keyboard.press(key);
    // One press, one position: the announcement names the next one, never the same again.
    await expect(announced).toHaveText(new RegExp(`^${title} is over position ${at + step} of \\d+\\.$`));
  }
  await page.keyboard.press("Space");
  await expect(announced).toHaveText(`${title} was dropped at position ${position}.`);
}

/** Picks a range on the date-range popover's 'Compare to' calendar, turning it to each day's month first. */
export async function pickCompareDays(page: Page, start: string, end: string): Promise<void> {
  const calendar = page.getByRole("group", { name: "Compare to calendar" });
  for (const day of [start, end]) {
    const date = new Date(`${day}T00:00:00Z`);
    const month = date.toLocaleString("en-GB", { month: "long", timeZone: "UTC" });
    const year = String(date.getUTCFullYear());
    await calendar.getByRole("combobox", { name: "Compare year" }).selectOption(year);
    await calendar.getByRole("combobox", { name: "Compare month" }).selectOption({ label: month });
    await calendar.getByRole("button", { name: `${date.getUTCDate()} ${month} ${year}`, exact: true }).click();
  }
}

/**
 * A dashboard made from a template through the API, as the signed-in page (its headers and session):
 * its permalink and id.
 */
export async function createTemplateDashboard(
  page: Page,
  name: string,
  template = "website-overview",
): Promise<{ permalink: string; id: string }> {
  return page.evaluate(
    async ({ name, template }) => {
      const headers = {
        Accept: "application/json",
        "Content-Type": "application/json",
        "x-requested-with": "XMLHttpRequest",
        "x-identification": sessionStorage.getItem("identification") ?? "",
      };
      const created = await fetch("/api/dashboards", {
        method: "POST",
        body: JSON.stringify({ name, template }),
        headers,
      });
      const { permalink } = ((await created.json()) as { data: { permalink: string } }).data;
      const shown = await fetch(`/api/dashboards/${permalink}`, { headers });
      return { permalink, id: ((await shown.json()) as { data: { id: string } }).data.id };
    },
    { name, template },
  );
}

/** The key figures of the card "Key figures" as a reader reads them: label → value. */
export async function keyFigures(page: Page): Promise<Record<string, string>> {
  const card = page.getByRole("article", { name: "Key figures", exact: true });
  const labels = await card.locator(".dash-kpi-label").allTextContents();
  const values = await card.locator(".dash-kpi-value").allTextContents();
  return Object.fromEntries(labels.map((label, index) => [label, values[index]]));
}

/** A new agency's "Agency overview" template dashboard, and its member's cookies for other browsers to open it with. */
export async function agencyDashboard(page: Page): Promise<{ permalink: string; cookies: Cookie[] }> {
  await signUp(page);
  const { permalink } = await createTemplateDashboard(page, "Agency overview");
  return { permalink, cookies: await page.context().cookies() };
}

/**
 * A dashboard page asked for as a browser without client hints asks for it (Firefox, Safari): no viewport
 * width, no Chromium brand. The server's page then carries no chart drawings (apps/server page-data
 * routes.ts), and the page's own code draws its charts: kept ones, the server's on request, or its worker's.
 */
export async function withoutViewportHint(target: Page | BrowserContext): Promise<void> {
  await target.route(/\/dashboards\/[^/?#]+(\?[^#]*)?$/, async (route) => {
    if (route.request().resourceType() !== "document") return route.fallback();
    // Asked outside the browser (its network stack adds the hints back to a request it continues).
    const headers: Record<string, string> = { ...(await route.request().allHeaders()), "accept-encoding": "identity" };
    for (const name of Object.keys(headers)) if (name.startsWith("sec-ch-")) delete headers[name];
    return route.fulfill({ response: await route.fetch({ headers }) });
  });
}

/**
 * Holds the code that hydrates a member's server-rendered dashboard (its `member-hydrate` chunk) until the
 * returned function is called: until then the page is the server's, drawn by the page itself.
 */
export async function holdHydration(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/member-hydrate-[^/]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}
