import { expect, type Locator, type Page, test } from "./fixtures";
import { snap } from "./support";
import { callForm } from "./support-api";
import { signUp } from "./support-auth";
import { connectDemo } from "./support-dashboard";

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 1024, height: 768 },
  { width: 390, height: 844 },
];

/** The height of one line of the element's text, as the browser lays it out. */
async function lineHeight(locator: Locator): Promise<number> {
  return locator.evaluate((element) => Number.parseFloat(getComputedStyle(element).lineHeight));
}

async function createFromTemplate(page: Page, name: string, template: string): Promise<string> {
  await page.goto("/dashboards/create");
  await page.getByLabel("Dashboard name").fill(name);
  await page.getByRole("radio", { name: template }).click();
  await page.getByRole("button", { name: "Create dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboards\/(?!create)[A-Za-z0-9_-]+/);
  return new URL(page.url()).pathname;
}

test("the connector catalogue shows each provider's mark, named after it", async ({ page }) => {
  await signUp(page);
  for (const name of [
    "Google Analytics",
    "Search Console",
    "Google Ads",
    "Google My Business",
    "Facebook Ads",
    "Facebook Social",
    "Instagram",
    "Google Sheets",
    "LinkedIn Ads",
    "Mailchimp",
    "TikTok",
    "Klaviyo",
    "Demo data",
    "CSV upload",
  ]) {
    const card = page.getByRole("article", { name: new RegExp(`^${name}`) });
    const logo = card.getByRole("img", { name: `${name} logo` });
    await expect(logo).toBeVisible();
    // A drawn mark, not the initials placeholder.
    expect(await logo.evaluate((element) => element.tagName.toLowerCase())).toBe("svg");
  }
  await snap(page, "company-sources-logos");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole("img", { name: "Google Analytics logo" })).toBeVisible();
  await snap(page, "company-sources-logos-phone");
});

test("dashboard cards keep each detail on one line, and Copy URL's confirmation stays on screen", async ({
  page,
  browser,
}) => {
  await signUp(page);
  await connectDemo(page);
  const path = await createFromTemplate(page, "Website overview for Beta Corporation", "Website overview");
  await createFromTemplate(page, "Acme", "Blank dashboard");

  await page.goto("/dashboards");
  const card = page.getByRole("article", { name: "Website overview for Beta Corporation" });
  const details = card.getByRole("list", { name: "Details" }).getByRole("listitem");
  await expect(details).toHaveText(["5 widgets", /^Updated [A-Z][a-z]{2} \d{2}, \d{4}$/]);
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    for (const item of await details.all()) {
      const box = await item.boundingBox();
      // Never broken inside an item: each takes exactly one line.
      expect(box?.height, `${await item.textContent()} at ${size.width} px`).toBeLessThanOrEqual(
        (await lineHeight(item)) + 1,
      );
    }
    await snap(page, `dashboards-list-${size.width}`);
  }

  // A fresh visitor (the sidebar closed on a phone), so nothing covers the header.
  for (const size of [WIDTHS[0], WIDTHS[2]]) {
    const context = await browser.newContext({ viewport: size, storageState: await page.context().storageState() });
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const viewer = await context.newPage();
    await viewer.goto(path);
    // Both dates of the range show in full (on a phone the range has a row of its own).
    const range = viewer.getByRole("button", { name: "Date range" });
    await expect(range).toHaveText(/^[A-Z][a-z]{2} \d{2}, \d{4} - [A-Z][a-z]{2} \d{2}, \d{4}$/);
    const clipped = await range.evaluate((button) => {
      const label = button.querySelector(".mantine-Button-label");
      return !label || label.scrollWidth > label.clientWidth + 1;
    });
    expect(clipped, `date range cut at ${size.width} px`).toBe(false);
    const copy = viewer.getByRole("button", { name: "Copy URL" });
    await copy.click();
    const tooltip = viewer.getByRole("tooltip", { name: "Copied successfully" });
    await expect(tooltip).toBeVisible();
    // Let the opening transition settle before measuring.
    await expect.poll(async () => (await tooltip.boundingBox())?.y).toBeGreaterThan(0);
    await viewer.waitForTimeout(200);
    const box = await tooltip.boundingBox();
    const button = await copy.boundingBox();
    expect(box && button).toBeTruthy();
    if (!box || !button) return;
    expect(box.x, `left edge at ${size.width} px`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `right edge at ${size.width} px`).toBeLessThanOrEqual(size.width);
    // It hangs from the button inward, below it.
    expect(box.x + box.width).toBeLessThanOrEqual(button.x + button.width + 1);
    expect(box.y).toBeGreaterThan(button.y);
    await viewer.screenshot({ path: `screenshots/copy-url-tooltip-${size.width}.png` });
    await context.close();
  }
});

test("a dark dashboard, with the theme's colours or its own: header buttons and lines in its cards' colours", async ({
  page,
  browser,
}) => {
  await signUp(page);
  await connectDemo(page);
  for (const [name, styles] of [
    ["Night report", { theme: "dark" }],
    // The dark theme with the agency's own navy cards and light text.
    [
      "Navy report",
      { theme: "dark", backgroundColor: "#0b1020", dashboardBackgroundColor: "#1e293b", color: "#e2e8f0" },
    ],
  ] as const) {
    const path = await createFromTemplate(page, name, "Website overview");
    const dashboard = (await callForm(page, "GET", `/api/dashboards/${path.split("/")[2]}`)).data as { id: string };
    await callForm(page, "POST", `/api/dashboards/${dashboard.id}`, { styles: JSON.stringify(styles) });
    for (const viewport of [WIDTHS[0], WIDTHS[2]]) {
      const client = await (await browser.newContext({ viewport })).newPage();
      await client.goto(path);
      const card = client.locator("article.dash-card").first();
      await expect(card).toHaveAttribute("data-ready", "true");
      const cardColours = await card.evaluate((element) => [
        getComputedStyle(element).backgroundColor,
        getComputedStyle(element).color,
      ]);
      for (const button of ["Date range", "Copy URL", "PDF"]) {
        // Polled: the lazy picker and Copy URL replace their stand-ins (a replaced node has no style).
        await expect
          .poll(
            () =>
              client
                .getByRole("button", { name: button, exact: true })
                .evaluate((element) => [getComputedStyle(element).backgroundColor, getComputedStyle(element).color]),
            { message: `${name}: ${button} at ${viewport.width} px` },
          )
          .toEqual(cardColours);
      }
      // The cards' borders and table lines are the dark theme's, not white lines on navy.
      const line = await card.evaluate((element) => getComputedStyle(element).getPropertyValue("--dash-line").trim());
      expect(line, name).toBe("#2a3049");
      await snap(client, `dark-header-${name.split(" ")[0].toLowerCase()}-${viewport.width}`);
      await client.close();
    }
  }
});

test("every template's tables fit a phone's card: no column cut off at 390 px", async ({ page, browser }) => {
  await signUp(page);
  await connectDemo(page);
  for (const template of ["Website overview", "SEO", "Paid ads"]) {
    const path = await createFromTemplate(page, `${template} on a phone`, template);
    const client = await (await browser.newContext({ viewport: WIDTHS[2] })).newPage();
    await client.goto(path);
    const tables = client.locator('article.dash-card[data-format="table"]');
    await expect(tables.first()).toHaveAttribute("data-ready", "true");
    for (const card of await tables.all()) {
      await expect(card).toHaveAttribute("data-ready", "true");
      const cut = await card.evaluate((article) => {
        const box = article.getBoundingClientRect();
        return Array.from(article.querySelectorAll("thead th, tfoot th, tfoot td"))
          .filter((cell) => cell.getBoundingClientRect().right > box.right + 1)
          .map((cell) => cell.textContent);
      });
      expect(cut, `${template}: ${await card.getAttribute("aria-label")}`).toEqual([]);
    }
    await snap(client, `tables-phone-${template.replace(/\W+/g, "-").toLowerCase()}`);
    await client.close();
  }
});

test("key figures show whole names, wrapped at word boundaries, never cut mid-word or clipped", async ({ page }) => {
  await signUp(page);
  await connectDemo(page);
  const path = await createFromTemplate(page, "Figures for Beta Corporation", "Website overview");
  for (const size of [WIDTHS[0], WIDTHS[2]]) {
    await page.setViewportSize(size);
    await page.goto(path);
    const card = page.getByRole("article", { name: "Key figures", exact: true });
    await expect(card).toHaveAttribute("data-ready", "true");
    // Each tile is a group named by the whole name, whatever its label shows.
    const duration = card.getByRole("group", { name: "Avg. Session Duration", exact: true });
    await expect(duration).toBeVisible();
    const tiles = await card.locator(".dash-kpi").evaluateAll((elements) =>
      elements.map((tile) => {
        const label = tile.querySelector(".dash-kpi-label") as HTMLElement;
        const lines = Math.round(
          label.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(label).lineHeight),
        );
        return {
          name: tile.getAttribute("aria-label") ?? "",
          title: label.title,
          text: label.textContent ?? "",
          lines,
          clipped: label.scrollWidth > label.clientWidth + 1 || label.scrollHeight > label.clientHeight + 1,
        };
      }),
    );
    expect(tiles.length).toBeGreaterThan(0);
    for (const tile of tiles) {
      expect(tile.title, `${tile.name} at ${size.width} px`).toBe(tile.name);
      expect(tile.clipped, `${tile.name} clipped at ${size.width} px`).toBe(false);
      expect(tile.lines, `${tile.name} at ${size.width} px`).toBeLessThanOrEqual(2);
      // Every word shown is a word of the name or a known short form (ending in a dot), never a cut.
      const words = tile.name.split(" ");
      for (const word of tile.text.split(" ")) {
        expect(words.includes(word) || /\.$/.test(word), `"${word}" of ${tile.name}`).toBe(true);
      }
    }
    // The screens this was seen on: the whole name fits in two lines of a laptop's and a phone's tile.
    await expect(duration.locator(".dash-kpi-label")).toHaveText("Avg. Session Duration");
    await snap(page, `key-figures-${size.width}`);
  }
});

test("catalogue cards show whole names and a whole 'Connected' badge, on a laptop and a phone", async ({ page }) => {
  await signUp(page);
  await connectDemo(page);
  await page.goto("/company/sources");
  const demo = page.getByRole("article", { name: "Demo data", exact: true });
  await expect(demo.getByText("Connected", { exact: true })).toBeVisible();
  for (const size of [WIDTHS[0], WIDTHS[2]]) {
    await page.setViewportSize(size);
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: 5000 })
      .toBeLessThanOrEqual(size.width);
    const cut = await page.locator("article").evaluateAll((cards) =>
      cards.flatMap((card) =>
        Array.from(card.querySelectorAll("h3, .mantine-Badge-root, .mantine-Badge-label"))
          .filter((element) => {
            const box = element as HTMLElement;
            return box.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight + 1;
          })
          .map((element) => `${card.getAttribute("aria-label")}: ${element.textContent}`),
      ),
    );
    expect(cut, `at ${size.width} px`).toEqual([]);
    await snap(page, `company-sources-connected-${size.width}`);
  }
});
