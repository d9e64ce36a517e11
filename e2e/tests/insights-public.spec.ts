import { expect, test } from "./fixtures";
import { incidentDashboard, SESSIONS_BY_CHANNEL_AND_DAY } from "./support-insights";

/**
 * A client's public view, rendered by the server and then adopted by the app (docs/decisions.md "Per-card
 * insight lines from the insights answer"): each card says its insights line as on the owner's screen,
 * already in the page the server sends.
 */
test("a client's public view shows each card's insights line, in the server's page and once the app is live", async ({
  page,
  browser,
}) => {
  const { path } = await incidentDashboard(page, "Harbor public", SESSIONS_BY_CHANNEL_AND_DAY);
  const client = await browser.newPage();
  // The server's page, as a client (no session) is sent it: the lines are in its HTML (the page runs no
  // app until the reader acts).
  const html = await (await client.request.get(path)).text();
  expect(html).toContain('data-testid="widget-insight"');
  expect(html).toMatch(/Sessions down [^<]*Organic Search contributed −/);
  await client.goto(path);
  const lineOf = (title: string) => client.getByRole("article", { name: title }).getByTestId("widget-insight");
  // Before the app: the server's lines.
  await expect(lineOf("Sessions by channel")).toContainText(/Insights: Sessions down .*Organic Search contributed −/);
  await expect(lineOf("Sessions by day")).toContainText(/Insights: Sessions down/);
  expect(await client.evaluate(() => document.documentElement.dataset.app ?? null)).toBeNull();
  // The reader's first key starts the app, which adopts the page with the same lines.
  await client.keyboard.press("Tab");
  await expect(client.locator("html")).toHaveAttribute("data-app", "live");
  await expect(lineOf("Sessions by channel")).toContainText(/Insights: Sessions down .*Organic Search contributed −/);
  await expect(lineOf("Sessions by day")).toContainText(/Insights: Sessions down/);
  expect(await client.evaluate(() => document.documentElement.dataset.hydration ?? null)).toBeNull();
  await client.close();
});
