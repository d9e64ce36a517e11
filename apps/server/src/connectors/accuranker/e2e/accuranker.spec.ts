import { expect, test } from "../../../../../../e2e/tests/fixtures";
import { closesItself, snap } from "../../../../../../e2e/tests/support";
import { signUp } from "../../../../../../e2e/tests/support-auth";
import { choose, createDashboard, readyWidget, widgetDrawer } from "../../../../../../e2e/tests/support-dashboard";
import { accurankerRank } from "../fake";

test("AccuRanker asks for the account before its sign-in: none is an error under the field, an unknown one is told, the right one connects and a keyword table shows AccuRanker's ranks", async ({
  page,
}) => {
  await signUp(page);
  // The card's button asks for the account in a dialog before AccuRanker's sign-in opens.
  await page.getByRole("article", { name: "AccuRanker" }).getByRole("button", { name: "Connect AccuRanker" }).click();
  const dialog = page.getByRole("dialog", { name: "Connect AccuRanker" });
  const connect = dialog.getByRole("button", { name: "Continue to AccuRanker" });
  const account = dialog.getByLabel("AccuRanker account");

  // Nothing typed: the server's 422 on `account` shows under the field.
  await connect.click();
  await expect(dialog.getByText("Please fill out this field.")).toBeVisible();
  await snap(page, "accuranker-account-needed");

  // An account the AccuRanker login cannot see: the fake consents, the connection fails in words.
  await account.fill("Nope Inc");
  const refusedPopup = page.waitForEvent("popup");
  await connect.click();
  await closesItself(refusedPopup);
  await expect(page.getByText("This AccuRanker login has no account named Nope Inc.")).toBeVisible();

  // The right account connects; the source carries the account's name.
  await account.fill("acme agency");
  const popup = page.waitForEvent("popup");
  await connect.click();
  await closesItself(popup);
  await expect(page.getByText("AccuRanker connected")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Acme Agency").first()).toBeVisible();
  await snap(page, "accuranker-connected");

  await createDashboard(page, "Acme rankings");
  const asked = page.waitForRequest((request) => request.url().endsWith("/api/widgets/data"));
  await page.getByRole("button", { name: "Add widget" }).click();
  const drawer = widgetDrawer(page);
  await choose(page, drawer, "Source", "Acme Agency");
  await choose(page, drawer, "Widget type", "Keyword table");
  await choose(page, drawer, "Domain", "Acme");
  await choose(page, drawer, "Columns", "Rank", "Search volume");
  await drawer.getByLabel("Title", { exact: true }).fill("Keyword ranks");
  await choose(page, drawer, "Format", "Table");
  await drawer.getByRole("button", { name: "Save" }).click();
  await expect(drawer).toBeHidden();
  const { endDate } = (await asked).postDataJSON() as { endDate: string };
  const table = await readyWidget(page, "Keyword ranks");
  // The last check of the range, as AccuRanker reports it, and the keyword's search volume.
  await expect(table.getByRole("row", { name: /bakery amsterdam/ })).toContainText(String(accurankerRank(1, endDate)));
  await expect(table.getByRole("row", { name: /bakery amsterdam/ })).toContainText("2,400");
  await snap(page, "accuranker-widget");
});
