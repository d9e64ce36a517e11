import path from "node:path";
import { expect, type Page, test } from "./fixtures";
import { SCREENSHOTS } from "./support";
import { signUp } from "./support-auth";
import { createTemplateDashboard, keyFigures, readyWidget } from "./support-dashboard";

/**
 * A shared dashboard arrives rendered by the server (docs/decisions.md "Public view: rendered
 * by the server, the app on the first touch"). A client reads every card before any app code has run;
 * the app takes the page over on the first touch, node for node.
 */

const CARDS = ["Key figures", "Sessions and users", "Channels", "Devices", "Top pages"];

async function sharedDashboard(page: Page): Promise<string> {
  test.setTimeout(120_000);
  await signUp(page);
  return (await createTemplateDashboard(page, "Client overview")).permalink;
}

test("with scripts off, a shared dashboard shows every card's numbers, laid out for a phone and a desk", async ({
  browser,
  page,
}) => {
  const permalink = await sharedDashboard(page);
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 900 },
  ]) {
    const context = await browser.newContext({ viewport, javaScriptEnabled: false });
    const visitor = await context.newPage();
    await visitor.goto(`/dashboards/${permalink}`);
    await expect(visitor.getByRole("heading", { level: 1, name: "Client overview" })).toBeVisible();
    for (const title of CARDS) {
      const card = visitor.getByRole("article", { name: title, exact: true });
      await expect(card).toBeVisible();
      // Not busy: its content is there (a chart's picture needs the page's script, the rest does not).
      if (!["Sessions and users", "Devices"].includes(title)) await expect(card).toHaveAttribute("data-ready", "true");
    }
    // Six key figures, each a number with its change, side by side (2 a row on a phone, 6 on a desk).
    const figures = await keyFigures(visitor);
    expect(Object.keys(figures)).toEqual([
      "Sessions",
      "Users",
      "Bounce Rate",
      "Avg. Session Duration",
      "Conversions",
      "Revenue",
    ]);
    expect(figures.Sessions).toMatch(/^\d{1,3}(,\d{3})*$/);
    expect(figures.Revenue).toMatch(/^\$\d{1,3}(,\d{3})*\.\d{2}$/);
    const tops = await visitor
      .locator(".dash-kpi")
      .evaluateAll((tiles) => tiles.map((tile) => Math.round(tile.getBoundingClientRect().top)));
    expect(new Set(tops).size).toBe(viewport.width === 390 ? 3 : 1);
    // Tables with their rows and totals, every column inside the card.
    const channels = visitor.getByRole("article", { name: "Channels", exact: true });
    await expect(channels.locator("tbody tr").first()).toContainText("Organic Search");
    await expect(channels.locator("tfoot")).toContainText("Total");
    for (const title of ["Channels", "Top pages"]) {
      const fits = await visitor
        .getByRole("article", { name: title, exact: true })
        .locator(".dash-table-scroll")
        .evaluate((element) => element.scrollWidth <= element.clientWidth + 1);
      expect(fits, `${title} at ${viewport.width} px`).toBe(true);
    }
    // The shared helper scrolls with a script: a plain full-page picture here.
    await visitor.screenshot({
      path: path.join(SCREENSHOTS, `public-no-script-${viewport.width}.png`),
      fullPage: true,
    });
    await context.close();
  }
});

test("the app takes a shared dashboard over on the first touch: the same nodes, the click kept, charts drawn before", async ({
  browser,
  page,
}) => {
  const permalink = await sharedDashboard(page);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const visitor = await context.newPage();
  const errors: string[] = [];
  visitor.on("pageerror", (error) => errors.push(error.message));
  visitor.on("console", (message) => {
    if (message.type() === "error" || message.text().includes("Hydration")) errors.push(message.text());
  });
  const scripts: string[] = [];
  visitor.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  await visitor.goto(`/dashboards/${permalink}`);

  // Before any touch: every card ready, the charts drawn as pictures by the worker, no app running.
  for (const title of CARDS) await readyWidget(visitor, title);
  const trend = visitor.getByRole("img", { name: "Sessions and users chart" });
  await expect(trend.locator(".echart-snapshot svg")).toBeVisible();
  expect(await trend.locator(".echart-snapshot text").allTextContents()).toEqual(
    expect.arrayContaining(["Sessions", "Users"]),
  );
  await visitor.waitForTimeout(500);
  await expect(visitor.locator("html")).not.toHaveAttribute("data-app", "live");
  const before = scripts.length;
  expect(scripts.some((script) => /\/hydrate-[^/]+\.js$/.test(script))).toBe(false);
  const figures = await keyFigures(visitor);

  // Marks a card's node and the snapshot: hydration must adopt them, not draw the page anew.
  await visitor.evaluate(() => {
    for (const element of Array.from(document.querySelectorAll(".dash-card, .echart-snapshot"))) {
      Object.assign(element, { e2eServerNode: true });
    }
  });

  // The first click, on the date range, loads the app; the picker opens for that very click.
  // The stand-in says it is not usable yet (aria-disabled) until the picker's code has loaded, so the
  // test's click does not wait for it to be enabled: a reader's click does not either.
  await visitor.getByRole("button", { name: "Date range" }).click({ force: true });
  await expect(visitor.locator("html")).toHaveAttribute("data-app", "live");
  await expect(visitor.getByRole("dialog", { name: "Date range" })).toBeVisible();
  expect(scripts.length).toBeGreaterThan(before);
  await visitor.keyboard.press("Escape");
  await expect(visitor.locator("html")).not.toHaveAttribute("data-hydration", "mismatch");
  const adopted = await visitor.evaluate(() =>
    Array.from(document.querySelectorAll(".dash-card")).every((element) => "e2eServerNode" in element),
  );
  expect(adopted).toBe(true);
  expect(await keyFigures(visitor)).toEqual(figures);
  // The chart's picture stays until the reader points at it; then the live chart takes over.
  await expect(trend.locator(".echart-snapshot svg")).toBeVisible();
  await trend.hover();
  await expect(trend.locator("canvas").first()).toBeVisible();
  expect(errors).toEqual([]);
  await context.close();
});

test("a viewer in another zone than the page was rendered in gets the app at once, under the server's page until it has drawn, and the next visit in its zone", async ({
  browser,
  page,
}) => {
  const permalink = await sharedDashboard(page);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: "Pacific/Auckland" });
  const visitor = await context.newPage();
  const stateZone = () =>
    visitor.evaluate(() => JSON.parse(document.getElementById("ssr-state")?.textContent ?? "{}").timezone);

  // The app's request for the dashboard is held until the test lets it go: the app is then started and
  // waiting, and what the reader sees meanwhile is the server's page.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let asked = () => {};
  const appAsked = new Promise<void>((resolve) => {
    asked = resolve;
  });
  const dashboardRequest = (url: URL) => url.pathname === `/api/dashboards/${permalink}`;
  await visitor.route(dashboardRequest, async (route) => {
    asked();
    await held;
    await route.continue();
  });

  // First visit: the server knows no zone yet and renders in UTC; the browser's dates may differ, so the
  // app starts at once (its range computed in Auckland) and says where it is for next time.
  await visitor.goto(`/dashboards/${permalink}`);
  expect(await stateZone()).toBe("UTC");
  await appAsked;
  // Its start downloaded in parallel, as the app's page does: the preloads the server kept inert for
  // this case are in the head.
  expect(await visitor.locator("head > link[rel=modulepreload][data-start]").count()).toBeGreaterThan(0);
  // The app has started under the server's page (its loader in the root)…
  await expect(visitor.locator("#root").getByRole("status", { name: "Loading dashboard" })).toBeAttached();
  // …which stays in view over it, every card there (hidden from assistive technology: the app's root is
  // what they read).
  const serverPage = visitor.locator("#boot-view");
  await expect(serverPage).toHaveCount(1);
  const serverTitle = serverPage.locator("h1.dash-title");
  await expect(serverTitle).toHaveText("Client overview");
  await expect(serverTitle).toBeVisible();
  for (const title of CARDS) {
    await expect(serverPage.getByRole("article", { name: title, exact: true, includeHidden: true })).toBeVisible();
  }
  const serverCards = await serverPage.locator("article.dash-card").count();
  const onTop = (element: Element) => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit !== null && element.contains(hit);
  };
  expect(await serverTitle.evaluate(onTop)).toBe(true);
  expect(
    await serverPage.getByRole("article", { name: "Key figures", exact: true, includeHidden: true }).evaluate(onTop),
  ).toBe(true);
  // Not for a moment only: it stays as long as the app waits.
  await visitor.waitForTimeout(1_000);
  await expect(serverPage).toHaveCount(1);
  await expect(serverTitle).toBeVisible();

  // Once the app has its answer it draws the dashboard, and the server's page goes in that very commit:
  // when it is removed, the app's own title and cards are already in the root.
  await visitor.evaluate(() => {
    Object.assign(window, {
      e2eBootViewGone: new Promise((resolve) => {
        const observer = new MutationObserver(() => {
          if (document.getElementById("boot-view")) return;
          observer.disconnect();
          resolve({
            title: document.querySelector("#root h1.dash-title")?.textContent ?? null,
            cards: document.querySelectorAll("#root article.dash-card").length,
          });
        });
        observer.observe(document.body, { childList: true, subtree: true });
      }),
    });
  });
  release();
  const atRemoval = await visitor.evaluate(
    () => (window as unknown as { e2eBootViewGone: Promise<unknown> }).e2eBootViewGone,
  );
  expect(atRemoval).toEqual({ title: "Client overview", cards: serverCards });
  await expect(serverPage).toHaveCount(0);
  await visitor.unroute(dashboardRequest);
  await expect(visitor.getByRole("heading", { level: 1, name: "Client overview" })).toBeVisible();
  await readyWidget(visitor, "Key figures");
  await expect(visitor.getByRole("button", { name: "Date range" })).not.toHaveAttribute("aria-disabled", "true");
  expect((await context.cookies()).find((cookie) => cookie.name === "tz")?.value).toBe("Pacific%2FAuckland");

  // Next visit: rendered in Auckland's zone, waiting for the reader.
  await visitor.goto(`/dashboards/${permalink}`);
  expect(await stateZone()).toBe("Pacific/Auckland");
  await readyWidget(visitor, "Key figures");
  await visitor.waitForTimeout(500);
  await expect(visitor.locator("html")).not.toHaveAttribute("data-app", "live");
  await context.close();
});
