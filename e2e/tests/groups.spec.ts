import { expect, type Locator, type Page, test } from "@playwright/test";
import { snap } from "./support";
import { signUp } from "./support-auth";

/** The message core's normaliseDomain gives a single-label private name such as localhost. */
const NOT_PUBLIC = "This name is not on the public internet; enter a public domain such as example.com.";

const domainRow = (page: Page, domain: string) => page.locator(`tr[data-domain="${domain}"]`);
const clicksChange = (row: Locator) => row.locator('[data-metric="clicks"] [data-tone]');
const clicksValue = (row: Locator) => row.locator('[data-metric="clicks"] > :first-child');

// Mantine hides the radio inputs under their labels: the label is what a person clicks.
const windowToggle = (page: Page) => page.getByRole("radiogroup", { name: "Change window" });

async function addDomain(page: Page, domain: string) {
  await page.getByLabel("Domain", { exact: true }).fill(domain);
  await page.getByRole("button", { name: "Add domain" }).click();
}

test("mission control: an admin creates a group, adds domains, sees the drop, toggles 7/30 days and snoozes", async ({
  page,
}) => {
  await signUp(page);
  await page.goto("/groups");
  await expect(page.getByText("No groups yet")).toBeVisible();
  await snap(page, "groups-empty");

  await page.getByRole("link", { name: "Create group" }).first().click();
  await expect(page).toHaveURL(/\/groups\/create$/);
  // The server's 422 shows under the field.
  await page.getByRole("button", { name: "Create group" }).click();
  await expect(page.getByText("The name field is required.")).toBeVisible();
  await page.getByLabel("Group name").fill("Acme websites");
  await page.getByRole("button", { name: "Create group" }).click();
  await expect(page).toHaveURL(/\/groups\/[^/]+$/);
  await expect(page.getByRole("heading", { name: /Acme websites/ })).toBeVisible();
  await expect(page.getByText("Demo data", { exact: true })).toBeVisible();

  await addDomain(page, "localhost");
  const field = page.getByLabel("Domain", { exact: true });
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(NOT_PUBLIC)).toBeVisible();

  const added = Date.now();
  for (const domain of ["acme.com", "drop-shop.com", "example.org"]) {
    await addDomain(page, domain);
    await expect(domainRow(page, domain)).toBeVisible();
    await expect(field).toHaveValue("");
  }
  // A duplicate is refused under the field too.
  await addDomain(page, "https://www.acme.com/pricing");
  await expect(page.getByText("This domain is already in the group.")).toBeVisible();
  // Typing again clears the message.
  await field.fill("");
  await expect(page.getByText("This domain is already in the group.")).toHaveCount(0);

  // The history arrives from a job: the page polls while a domain says "Collecting data…".
  const acme = domainRow(page, "acme.com");
  const drop = domainRow(page, "drop-shop.com");
  await expect(clicksChange(drop)).toHaveAttribute("data-tone", "bad", { timeout: 30_000 });
  await expect(clicksChange(acme)).toBeVisible();
  await expect(page.getByText(/Collecting data/)).toHaveCount(0, { timeout: 30_000 });
  console.log(`groups.spec: metrics of 3 domains shown ${Date.now() - added} ms after the first was added`);

  // The drop reads as a fall with an arrow, not by colour alone; acme has a baseline.
  await expect(clicksChange(drop)).toHaveAttribute("data-change", "down");
  await expect(clicksChange(drop)).toContainText("▼");
  await expect(clicksChange(acme)).not.toHaveText("N/A");
  await expect(drop.getByText(/^As of /)).toBeVisible();

  // 7 → 30 days: a new request with window=30, and other numbers.
  const weekClicks = await clicksValue(acme).textContent();
  const monthRequest = page.waitForRequest((request) => /\/api\/campaigns\/[^/?]+\?window=30$/.test(request.url()));
  await windowToggle(page).getByText("Last 30 days").click();
  await monthRequest;
  await expect(clicksValue(acme)).not.toHaveText(weekClicks ?? "");
  // Back to 7 days: the cached week answer shows again at once.
  await windowToggle(page).getByText("Last 7 days").click();
  await expect(clicksValue(acme)).toHaveText(weekClicks ?? "");

  await acme.getByRole("button", { name: "Snooze for a week" }).click();
  await expect(acme.getByText(/^Snoozed until /)).toBeVisible();
  await expect(acme.getByRole("button", { name: "Un-snooze" })).toBeVisible();
  await snap(page, "groups-show");

  await page.setViewportSize({ width: 390, height: 844 });
  // On a phone the table scrolls inside its own focusable region; the page does not scroll sideways.
  const region = page.getByRole("region", { name: "Domains" });
  await region.focus();
  await expect(region).toBeFocused();
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await snap(page, "groups-show-phone");
  await region.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
  const unsnooze = acme.getByRole("button", { name: "Un-snooze" });
  await expect
    .poll(async () => {
      const box = await unsnooze.boundingBox();
      return Boolean(box && box.x >= 0 && box.x + box.width <= 390);
    })
    .toBe(true);
  await snap(page, "groups-show-phone-scrolled");

  await acme.getByRole("button", { name: "Un-snooze" }).click();
  await expect(acme.getByText(/^Snoozed until /)).toHaveCount(0);

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/groups");
  const card = page.getByRole("link", { name: /Acme websites/ });
  await expect(card).toContainText("3 domains");
  await snap(page, "groups-index");
  await page.setViewportSize({ width: 390, height: 844 });
  // The phone layout arrives a render after the resize: wait until nothing sticks out sideways.
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await snap(page, "groups-index-phone");

  // Remove asks first.
  await card.click();
  await domainRow(page, "example.org").getByRole("button", { name: "Remove example.org" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove", exact: true }).click();
  await expect(domainRow(page, "example.org")).toHaveCount(0);
});
