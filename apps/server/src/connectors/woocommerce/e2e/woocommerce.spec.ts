import { expect, test } from "../../../../../../e2e/tests/fixtures";
import { daysFrom, FAKES_URL } from "../../../../../../e2e/tests/support";
import { signUp } from "../../../../../../e2e/tests/support-auth";
import { choose, createDashboard, readyWidget, widgetDrawer } from "../../../../../../e2e/tests/support-dashboard";
import { fakeWooDay, WOO_KEY, WOO_SECRET } from "../fake";

test("WooCommerce: a shop on a private address is refused on the site field; the shop's own address connects and a widget shows its orders", async ({
  page,
}) => {
  await signUp(page);
  await page.getByRole("article", { name: "WooCommerce" }).getByRole("button", { name: "Connect WooCommerce" }).click();
  const form = page
    .getByRole("dialog", { name: "Connect WooCommerce" })
    .getByRole("form", { name: "Connect WooCommerce" });
  await form.getByLabel("Consumer key|secret").fill(`${WOO_KEY}|${WOO_SECRET}`);
  // An address inside the server's own network is never fetched, whatever the user types.
  await form.getByLabel("Site URL").fill("https://10.0.0.1");
  await form.getByRole("button", { name: "Connect WooCommerce" }).click();
  await expect(form.getByText(/which is not a public address/)).toBeVisible();
  await expect(page.getByText("No sources connected yet")).toBeVisible();

  // The fake shop runs next door on 127.0.0.1, which this deployment allows (OUTBOUND_ALLOW_HOSTS).
  await form.getByLabel("Site URL").fill(FAKES_URL);
  await form.getByRole("button", { name: "Connect WooCommerce" }).click();
  await expect(page.getByText("WooCommerce connected")).toBeVisible();
  // Named by the shop's own site address, as WooCommerce reports it.
  await expect(page.getByText("shop.example.com").first()).toBeVisible();

  await createDashboard(page, "Acme shop");
  const asked = page.waitForRequest((request) => request.url().endsWith("/api/widgets/data"));
  await page.getByRole("button", { name: "Add widget" }).click();
  const drawer = widgetDrawer(page);
  await choose(page, drawer, "Source", "shop.example.com");
  await choose(page, drawer, "Widget type", "Sales");
  await choose(page, drawer, "Metrics", "Orders");
  await drawer.getByLabel("Title", { exact: true }).fill("Orders");
  await choose(page, drawer, "Format", "Summary");
  await drawer.getByRole("button", { name: "Save" }).click();
  await expect(drawer).toBeHidden();
  const { startDate, endDate } = (await asked).postDataJSON() as { startDate: string; endDate: string };
  const orders = daysFrom(startDate, endDate).reduce((sum, day) => sum + fakeWooDay(day).orders_count, 0);
  await expect(await readyWidget(page, "Orders")).toContainText(orders.toLocaleString("en-US"));
});
