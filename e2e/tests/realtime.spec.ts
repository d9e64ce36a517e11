import { type Browser, expect, type Page, test, type WebSocketRoute } from "./fixtures";
import { snap } from "./support";
import { call } from "./support-api";
import { logIn, signUp } from "./support-auth";

test("the realtime view refreshes a widget when its source changes in another browser, without a reload", async ({
  page,
  browser,
}) => {
  const email = await signUp(page, "Rita Realtime");
  const created = (await call(page, "POST", "/api/dashboards", {
    name: "Live numbers",
    template: "website-overview",
  })) as {
    data: { permalink: string };
  };
  const { permalink } = created.data;
  const sources = (await call(page, "GET", "/api/sources")) as { data: Array<{ id: string; name: string }> };
  const demo = sources.data.find((source) => source.name === "demo");
  expect(demo).toBeTruthy();

  const websockets: string[] = [];
  page.on("websocket", (socket) => websockets.push(socket.url()));
  await page.goto(`/dashboards/${permalink}/realtime`);
  await expect(page.getByRole("heading", { level: 1, name: "Live numbers" })).toBeVisible();
  // No chrome: no sidebar, no edit mode, no user menu.
  await expect(page.getByRole("complementary", { name: "Dashboard sidebar" })).toHaveCount(0);
  const status = page.getByRole("status").filter({ hasText: /Live|Connecting/ });
  await expect(status).toHaveText(/^Live/);
  const cards = page.getByRole("main").getByRole("article");
  await expect(cards.first()).toBeVisible();
  const dataCards = page.locator("article.dash-card[data-state='ready']");
  await expect.poll(() => dataCards.count(), { timeout: 20_000 }).toBeGreaterThan(0);
  const readyBefore = await dataCards.count();
  await snap(page, "realtime-view-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, "realtime-view-390");
  await page.setViewportSize({ width: 1280, height: 800 });
  // Every widget has its answer: a widget request from now on is a refresh.
  await expect(page.locator("article.dash-card[aria-busy='true']")).toHaveCount(0, { timeout: 20_000 });
  // Anything a reload would lose.
  await page.evaluate(() => {
    (window as unknown as { stillHere: boolean }).stillHere = true;
  });

  // A colleague (the same account in another browser) reconnects, then disconnects the Demo source.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await logIn(otherPage, email);
  const refetched = page.waitForRequest((request) => /\/api\/widgets\/data/.test(request.url()));
  await call(otherPage, "PUT", `/api/sources/${demo?.id}`, {});
  // The page's own calls name its socket (docs/product.md §7), over a real websocket.
  expect((await refetched).headers()["x-socket-id"]).toBeTruthy();
  expect(websockets.some((url) => url.includes("/socket.io/") && url.includes("transport=websocket"))).toBe(true);
  await expect(status).toHaveText(/Live · last change/);

  await call(otherPage, "DELETE", `/api/sources/${demo?.id}`);
  // The widgets over the deleted source show that they have no data, without the page reloading.
  await expect(dataCards).toHaveCount(0, { timeout: 15_000 });
  expect(readyBefore).toBeGreaterThan(0);
  await expect(
    page.locator("article.dash-card[data-state='error'], article.dash-card[data-state='unavailable']").first(),
  ).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
  await snap(page, "realtime-view-after-change");
  await other.close();
});

test("a public realtime view shows the dashboard read-only and says it refreshes on a clock", async ({
  page,
  browser,
}) => {
  await signUp(page, "Paul Public");
  const created = (await call(page, "POST", "/api/dashboards", {
    name: "Shared live",
    template: "website-overview",
  })) as {
    data: { permalink: string };
  };
  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  const sockets: string[] = [];
  visitorPage.on("request", (request) => {
    if (request.url().includes("/socket.io/")) sockets.push(request.url());
  });
  await visitorPage.goto(`/dashboards/${created.data.permalink}/realtime`);
  await expect(visitorPage.getByRole("heading", { level: 1, name: "Shared live" })).toBeVisible();
  await expect(visitorPage.getByRole("status").filter({ hasText: "refreshes every minute" })).toBeVisible();
  await expect
    .poll(() => visitorPage.locator("article.dash-card[data-state='ready']").count(), { timeout: 20_000 })
    .toBeGreaterThan(0);
  // No session, no channel: a public viewer never opens a socket.
  expect(sockets).toEqual([]);
  await visitor.close();
});

test("a canceled subscription updates the banners of the other open browsers at once", async ({ page, browser }) => {
  const email = await signUp(page, "Cora Cancel");
  // The page is listening once the server acknowledges its subscription. Socket.IO opens with HTTP long-polling and
  // upgrades to a websocket, so the acknowledgement comes on whichever transport was current when it was sent.
  const subscribed = new Promise<void>((resolve) => {
    const acknowledges = (payload: string) => payload.includes('{"ok":true}');
    page.on("websocket", (socket) =>
      socket.on("framereceived", ({ payload }) => {
        if (acknowledges(String(payload))) resolve();
      }),
    );
    page.on("response", async (response) => {
      if (!response.url().includes("/socket.io/") || response.request().method() !== "GET") return;
      const body = await response.text().catch(() => "");
      if (acknowledges(body)) resolve();
    });
  });
  await page.goto("/dashboards");
  await subscribed;
  const messages = page.getByRole("region", { name: "Messages" });
  // A trial without a subscription carries banner 120; once canceled it is no longer a trial (docs/product.md §4).
  await expect(messages.getByText("Your Reportz Trial Is Active")).toBeVisible();
  await page.evaluate(() => {
    (window as unknown as { stillHere: boolean }).stillHere = true;
  });

  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await logIn(otherPage, email);
  await call(otherPage, "DELETE", "/api/company", { cancellation: { reason: "Testing" } });

  await expect(page.getByText("Your Reportz Trial Is Active")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
  await other.close();
});

test("a realtime widget on the Demo's live data shows when it was updated, and the mark moves when it refreshes", async ({
  page,
}) => {
  await signUp(page, "Lena Live");
  const created = (await call(page, "POST", "/api/dashboards", { name: "Live visitors" })) as {
    data: { permalink: string };
  };
  const { permalink } = created.data;
  const sources = (await call(page, "GET", "/api/sources")) as { data: Array<{ id: string; name: string }> };
  let demo = sources.data.find((source) => source.name === "demo");
  if (!demo)
    demo = ((await call(page, "POST", "/api/sources", { name: "demo" })) as { data: { id: string; name: string } })
      .data;
  const shown = (await call(page, "GET", `/api/dashboards/${permalink}`)) as { data: { id: string } };
  const widget = {
    id: "live1",
    nature: "interactive",
    realTime: false,
    order: 0,
    hash: "live1",
    width: 2,
    height: 1,
    title: "Active users right now",
    description: null,
    format: "summary",
    percent: false,
    hiddenChange: false,
    hiddenHighlight: false,
    rowsLimit: 15,
    orderBy: { column: "dimension", dir: "asc" },
    formatOptions: {},
    instances: [
      {
        id: "i1",
        type: "demo.realtime",
        prefix: "a",
        sourceId: demo.id,
        config: "demo.realtime",
        currency: null,
        accounts: [],
        inputs: { property: "acme-software", metrics: ["activeUsers", "views"] },
        metricsOptions: {},
      },
    ],
  };
  const saved = await page.evaluate(
    async ({ id, widgets }) => {
      const form = new FormData();
      form.set("widgets", JSON.stringify(widgets));
      const response = await fetch(`/api/dashboards/${id}`, {
        method: "POST",
        body: form,
        headers: {
          Accept: "application/json",
          "x-requested-with": "XMLHttpRequest",
          "x-identification": sessionStorage.getItem("identification") ?? "",
        },
      });
      return response.status;
    },
    { id: shown.data.id, widgets: [widget] },
  );
  expect(saved).toBe(200);

  await page.goto(`/dashboards/${permalink}/realtime`);
  const card = page.getByRole("article", { name: "Active users right now" });
  await expect(card).toHaveAttribute("data-state", "ready", { timeout: 20_000 });
  await expect(card.getByText("Active users", { exact: true })).toBeVisible();
  const mark = card.getByTestId("widget-updated");
  await expect(mark).toHaveText(/^Updated \d{2}:\d{2}:\d{2}$/);
  const first = await mark.textContent();
  await snap(page, "realtime-live-widget");
  // The page hears its company's channel (the card's first answer came before it did; a source changed
  // in between would not refresh the card, docs/decisions.md "A page that was not listening catches up").
  await expect(page.getByRole("status").filter({ hasText: /Live|Connecting/ })).toHaveText(/^Live/);
  // The source changes (as when it is reconnected): the live widget is fetched again and says so.
  await page.waitForTimeout(1100);
  await call(page, "PUT", `/api/sources/${demo.id}`, {});
  await expect(mark).not.toHaveText(first ?? "", { timeout: 15_000 });
});

test("a page whose realtime connection was cut catches up on what was said meanwhile, without a reload", async ({
  page,
  browser,
}) => {
  // The page's realtime connection goes through the test, which can cut it and keep it cut, as a lost
  // network would: its polling requests fail and its websockets close while `cut` holds.
  let cut = false;
  const sockets: WebSocketRoute[] = [];
  await page.route(/\/socket\.io\//, (route) => (cut ? route.abort() : route.continue()));
  await page.routeWebSocket(/\/socket\.io\//, (socket) => {
    if (cut) return void socket.close();
    socket.connectToServer();
    sockets.push(socket);
  });
  let subscriptions = 0;
  page.on("response", (response) => {
    if (response.url().endsWith("/broadcasting/auth") && response.ok()) subscriptions += 1;
  });
  const { email, demoId } = await withDemoConnected(page, "Rhea Reconnect");
  await expect.poll(() => subscriptions, { timeout: 15_000 }).toBeGreaterThan(0);
  await page.evaluate(() => {
    (window as unknown as { stillHere: boolean }).stillHere = true;
  });

  cut = true;
  for (const socket of sockets) await socket.close();
  const subscribedBefore = subscriptions;
  // Meanwhile a colleague disconnects the Demo source: the event is said on the channel while this page
  // is not listening.
  await colleagueDeletesSource(browser, email, demoId);
  await expect(page.getByRole("button", { name: "Connect Demo data" })).toHaveCount(0);

  // The connection comes back by itself; the page asks again for what the channel keeps fresh.
  cut = false;
  await expect.poll(() => subscriptions, { timeout: 30_000 }).toBeGreaterThan(subscribedBefore);
  await expect(page.getByRole("button", { name: "Connect Demo data" })).toBeVisible({ timeout: 15_000 });
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
});

test("a page whose channel authorisation failed tries again, then hears and catches up on what was said meanwhile, without a reload", async ({
  page,
  browser,
}) => {
  // The page's first authorisation meets a server that cannot answer (a restart, an overloaded moment).
  // Its next one is held until a colleague's change has been said on the channel, so that change is one
  // the page can only learn by catching up.
  let authorisations = 0;
  let authorised = 0;
  let said: () => void = () => undefined;
  const changeSaid = new Promise<void>((resolve) => {
    said = resolve;
  });
  await page.route(/\/broadcasting\/auth$/, async (route) => {
    authorisations += 1;
    if (authorisations === 1)
      return route.fulfill({ status: 503, json: { code: "unavailable", message: "Service unavailable." } });
    await changeSaid;
    const response = await route.fetch();
    if (response.ok()) authorised += 1;
    return route.fulfill({ response });
  });
  const { email, demoId } = await withDemoConnected(page, "Ravi Retry");
  await page.evaluate(() => {
    (window as unknown as { stillHere: boolean }).stillHere = true;
  });
  // The first attempt failed and the page tries again (the second attempt is being held).
  await expect.poll(() => authorisations, { timeout: 15_000 }).toBeGreaterThan(1);
  expect(authorised).toBe(0);
  // A colleague disconnects the Demo source meanwhile.
  await colleagueDeletesSource(browser, email, demoId);
  said();

  // The held attempt goes through; the page subscribes and asks again for what the channel keeps fresh.
  await expect.poll(() => authorised, { timeout: 15_000 }).toBe(1);
  await expect(page.getByRole("button", { name: "Connect Demo data" })).toBeVisible({ timeout: 15_000 });
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
});

/** A new company whose owner connects the Demo source on the sources page: the owner's e-mail and the source. */
async function withDemoConnected(page: Page, name: string): Promise<{ email: string; demoId: string }> {
  const email = await signUp(page, name);
  await page.getByRole("button", { name: "Connect Demo data" }).click();
  await expect(page.getByText("Connected").first()).toBeVisible();
  const sources = (await call(page, "GET", "/api/sources")) as { data: Array<{ id: string; name: string }> };
  const demo = sources.data.find((source) => source.name === "demo");
  expect(demo).toBeTruthy();
  return { email, demoId: demo?.id ?? "" };
}

/** A colleague (the same account in another browser) disconnects the source. */
async function colleagueDeletesSource(browser: Browser, email: string, sourceId: string): Promise<void> {
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await logIn(otherPage, email);
  await call(otherPage, "DELETE", `/api/sources/${sourceId}`);
  await other.close();
}
