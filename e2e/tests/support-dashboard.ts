import { expect, type Locator, type Page } from "@playwright/test";

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

/** Switches edit mode on (if it is not on yet) and waits for the 'Add widget' button. */
export async function enterEditMode(page: Page): Promise<void> {
  const toggle = editModeSwitch(page);
  await expect(toggle).toBeEnabled();
  if (!(await toggle.isChecked())) await toggle.click({ force: true });
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
  await drawer.getByLabel("Title").fill(spec.title);
  await choose(page, drawer, "Format", spec.format);
  if (spec.size) await choose(page, drawer, "Size", spec.size);
  if (spec.minValue !== undefined) await drawer.getByLabel("Min value").fill(String(spec.minValue));
  if (spec.maxValue !== undefined) await drawer.getByLabel("Max value").fill(String(spec.maxValue));
  return drawer;
}

/** Adds a data widget through the drawer and waits until its card has drawn its data. */
export async function addWidget(page: Page, spec: WidgetSpec): Promise<Locator> {
  await page.getByRole("button", { name: "Add widget" }).click();
  const drawer = await fillWidgetForm(page, spec);
  const save = drawer.getByRole("button", { name: "Save" });
  await expect(save).toBeEnabled();
  await save.click();
  await expect(drawer).toBeHidden();
  return readyWidget(page, spec.title);
}

/** The widget card named `title`, once it has drawn its data. */
export async function readyWidget(page: Page, title: string): Promise<Locator> {
  const card = page.getByRole("main").getByRole("article", { name: title, exact: true });
  await expect(card).toHaveAttribute("data-ready", "true", { timeout: 15_000 });
  await expect(card).toHaveAttribute("data-state", "ready");
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
