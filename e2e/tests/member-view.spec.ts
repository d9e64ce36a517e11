import path from "node:path";
import { expect, test } from "./fixtures";
import { SCREENSHOTS } from "./support";
import { signUp } from "./support-auth";
import { agencyDashboard, createTemplateDashboard, holdHydration, keyFigures, readyWidget } from "./support-dashboard";

/**
 * An agency's own dashboard arrives rendered by the server (docs/decisions.md, "A member's dashboard
 * rendered by the server"): its figures in the page's HTML, its charts drawn before the app's code has
 * run, and then the whole app adopts the page (the same nodes), a click made meanwhile kept.
 */

const CARDS = ["Key figures", "Sessions and users", "Channels", "Devices", "Top pages"];
const LAPTOP = { width: 1280, height: 900 };
const TABLET = { width: 700, height: 900 };
const PHONE = { width: 390, height: 844 };

test("the agency's dashboard shows its figures and charts before the app is live; the app adopts it and keeps the click", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signUp(page);
  const { permalink } = await createTemplateDashboard(page, "Agency overview");
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));

  // The code that hydrates the page is held: what the member sees until then is the server's page.
  const release = await holdHydration(page);
  await page.goto(`/dashboards/${permalink}`);

  await expect(page.getByRole("heading", { level: 1, name: "Agency overview" })).toBeVisible();
  for (const title of CARDS) await readyWidget(page, title);
  const trend = page.getByRole("img", { name: "Sessions and users chart" });
  await expect(trend.locator(".echart-snapshot svg")).toBeVisible();
  expect(await trend.locator(".echart-snapshot text").allTextContents()).toEqual(
    expect.arrayContaining(["Sessions", "Users"]),
  );
  const figures = await keyFigures(page);
  expect(figures.Sessions).toMatch(/^\d{1,3}(,\d{3})*$/);
  await expect(page.locator("html")).not.toHaveAttribute("data-app", /.*/);
  await page.evaluate(() => {
    for (const element of Array.from(document.querySelectorAll(".dash-card, .echart-snapshot"))) {
      Object.assign(element, { e2eServerNode: true });
    }
    Object.assign(window, { e2eSamePage: true });
  });

  // A click on the date range before the app is live: the picker opens for it once the app is.
  await page.getByRole("button", { name: "Date range" }).click({ force: true });
  release();
  await expect(page.locator("html")).toHaveAttribute("data-app", "live");
  await expect(page.getByRole("dialog", { name: "Date range" })).toBeVisible();
  await page.keyboard.press("Escape");

  // Adopted, not drawn anew: the same cards and drawings, the same figures.
  const adopted = await page.evaluate(() =>
    Array.from(document.querySelectorAll(".dash-card, .echart-snapshot")).every(
      (element) => "e2eServerNode" in element,
    ),
  );
  expect(adopted).toBe(true);
  expect(await keyFigures(page)).toEqual(figures);
  // The member's screen is the app's: its sidebar, and its link to the list is a move inside the app.
  const sidebar = page.getByRole("complementary", { name: "Dashboard sidebar" });
  await expect(sidebar.getByRole("switch", { name: "Edit mode" })).toBeEnabled();
  await sidebar.getByRole("link", { name: "All dashboards" }).click();
  await expect(page).toHaveURL(/\/dashboards$/);
  await expect(page.getByRole("link", { name: "Agency overview" }).first()).toBeVisible();
  expect(await page.evaluate(() => "e2eSamePage" in window)).toBe(true);
  expect(errors).toEqual([]);
});

test("the server's page opens the sidebar on a desk and leaves it closed on a phone, with its button there", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const { permalink, cookies } = await agencyDashboard(page);
  for (const viewport of [LAPTOP, PHONE]) {
    // Scripts off: the server's page as it is painted before any of the app's code has run.
    for (const javaScriptEnabled of [false, true]) {
      const context = await browser.newContext({ viewport, javaScriptEnabled });
      await context.addCookies(cookies);
      const member = await context.newPage();
      await member.goto(`/dashboards/${permalink}`);
      await expect(member.getByRole("heading", { level: 1, name: "Agency overview" })).toBeVisible();
      const sidebar = member.getByRole("complementary", { name: "Dashboard sidebar" });
      const open = member.getByRole("button", { name: "Open sidebar" });
      if (javaScriptEnabled) await expect(member.locator("html")).toHaveAttribute("data-app", "live");
      if (viewport.width > 425) {
        await expect(sidebar).toBeVisible();
        await expect(open).toHaveCount(0);
        if (javaScriptEnabled) {
          await expect(sidebar.getByRole("switch", { name: "Edit mode" })).toBeVisible();
          // Wide enough for the cards beside the sidebar.
          const card = await member.getByRole("article", { name: "Key figures", exact: true }).boundingBox();
          const aside = await sidebar.boundingBox();
          expect(card && aside && card.x >= aside.x + aside.width).toBe(true);
        }
      } else {
        await expect(sidebar).toBeHidden();
        await expect(member.getByRole("article", { name: "Key figures", exact: true })).toBeVisible();
        if (javaScriptEnabled) {
          await open.click();
          await expect(sidebar).toBeVisible();
          await expect(sidebar.getByRole("switch", { name: "Edit mode" })).toBeVisible();
        }
      }
      await member.screenshot({
        path: path.join(SCREENSHOTS, `member-view-${viewport.width}${javaScriptEnabled ? "" : "-no-script"}.png`),
      });
      await context.close();
    }
  }
});

test("a member's charts come drawn in the page, at the sizes their boxes have on a laptop, a tablet and a phone", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const { permalink, cookies } = await agencyDashboard(page);
  for (const viewport of [LAPTOP, TABLET, PHONE]) {
    // A new browser: it has said nothing of its viewport to the server yet, and keeps no drawing.
    const context = await browser.newContext({ viewport });
    await context.addCookies(cookies);
    const member = await context.newPage();
    const asked: string[] = [];
    member.on("request", (request) => {
      if (request.url().endsWith("/api/chart-snapshots")) asked.push(request.url());
    });
    // The app is held until the drawings are looked at: once live, it draws a chart in view live instead.
    const release = await holdHydration(member);
    await member.goto(`/dashboards/${permalink}`);
    for (const title of CARDS) await readyWidget(member, title);
    // The server drew the two charts while the page was on its way, each at its box's size at this width and
    // its input at its body's (docs/decisions.md, "A member's charts drawn ahead"), and sent them in the page
    // ("A member's charts drawn in the page"): the page asked for none, and each drawing fits its box.
    expect(asked, `${viewport.width} px`).toEqual([]);
    const drawings = await member.locator("[data-chart-input]").evaluateAll((boxes) =>
      boxes.map((box) => ({
        box: `${box.clientWidth}x${box.clientHeight}`,
        drawn: box.querySelector<HTMLElement>(":scope > .echart-snapshot")?.dataset.size,
        svg: box.querySelector(":scope > .echart-snapshot svg")?.getAttribute("width"),
      })),
    );
    expect(drawings.length, `${viewport.width} px`).toBe(2);
    for (const drawing of drawings) {
      expect(drawing.drawn, `${viewport.width} px`).toBe(drawing.box);
      expect(drawing.svg).toBe(drawing.box.split("x")[0]);
    }
    release();
    await expect(member.locator("html")).toHaveAttribute("data-app", "live");
    expect(asked, `${viewport.width} px`).toEqual([]);
    await context.close();
  }
});

test("with none of the app's code, a member's page shows every card drawn", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { permalink, cookies } = await agencyDashboard(page);
  const context = await browser.newContext({ viewport: LAPTOP });
  await context.addCookies(cookies);
  const member = await context.newPage();
  // No script of the app arrives (a slow network, a blocked file): the page itself draws what it carries, by
  // the one inline script its policy allows.
  await member.route(/\/assets\/.*\.js$/, (route) => route.abort());
  const refused: string[] = [];
  member.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  await member.goto(`/dashboards/${permalink}`);
  for (const title of CARDS) await readyWidget(member, title);
  const trend = member.getByRole("img", { name: "Sessions and users chart" });
  await expect(trend.locator(".echart-snapshot svg")).toBeVisible();
  expect(await trend.locator(".echart-snapshot text").allTextContents()).toEqual(
    expect.arrayContaining(["Sessions", "Users"]),
  );
  await expect(member.locator("html")).not.toHaveAttribute("data-app", /.*/);
  expect(refused).toEqual([]);
  await member.evaluate(() => window.scrollTo(0, 0));
  await member.screenshot({ path: path.join(SCREENSHOTS, "member-view-no-script.png") });
  await context.close();
});
