import { connectorWith } from "../../apps/server/test/connectors";
import { expect, test } from "./fixtures";
import { signUp } from "./support-auth";

// The product opened at localhost while APP_URL says 127.0.0.1 (the test server's APP_URL): the
// provider sends the popup back to APP_URL, where the session cookie of the other host is not sent.
const port = Number(process.env.E2E_PORT);
const appUrl = `http://127.0.0.1:${port}`;
test.use({ baseURL: `http://localhost:${port}` });
// Any OAuth connector whose card's Connect opens the provider's sign-in (the first in the catalogue):
// the popup's return is the OAuth flow's, the same for every connector.
const connector = connectorWith("oauth");

test("OAuth popup back at APP_URL's host without the session: the popup says in words to open the product at APP_URL", async ({
  page,
}) => {
  await signUp(page);
  const opened = page.waitForEvent("popup");
  await page
    .getByRole("article", { name: connector.displayName })
    .getByRole("button", { name: `Connect ${connector.displayName}` })
    .click();
  const popup = await opened;
  await popup.waitForURL(`${appUrl}/api/oauth/${connector.key}/callback?**`);

  // Words, not the API's JSON; the popup stays open to be read.
  await expect(popup.getByRole("heading", { name: "Not connected" })).toBeVisible();
  await expect(popup.locator("body")).toContainText(
    `You are not signed in at ${appUrl}. If you opened Reportz at another address (such as 127.0.0.1 instead of localhost, or the reverse), your sign-in stayed there. Open Reportz at ${appUrl}, sign in, and click Connect again.`,
  );
  await expect(popup.locator("body")).not.toContainText('"code"');
  await expect(popup.getByRole("link", { name: appUrl })).toHaveAttribute("href", appUrl);
  expect(popup.isClosed()).toBe(false);
});
