import fs from "node:fs";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { signUp } from "./support-auth";
import { connectDemo, createTemplateDashboard } from "./support-dashboard";

// Temporary review spec (deleted after use).
const OUT = process.env.SHOTS ?? "/tmp/shots";
type Json = Record<string, unknown>;

async function call(page: Page, method: string, path: string, form?: Record<string, string>): Promise<Json> {
  return page.evaluate(
    async ({ method, path, form }) => {
      let body: FormData | undefined;
      if (form) {
        body = new FormData();
        for (const [key, value] of Object.entries(form)) body.append(key, value);
      }
      const response = await fetch(path, {
        method,
        body,
        headers: {
          Accept: "application/json",
          "x-requested-with": "XMLHttpRequest",
          "x-identification": sessionStorage.getItem("identification") ?? "",
        },
      });
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return response.json();
    },
    { method, path, form },
  );
}

interface Extra {
  title: string;
  format: string;
  width: number;
  height: number;
  type: string;
  inputs: Json;
  formatOptions?: Json;
  orderBy?: { column: string; dir: "asc" | "desc" };
}

async function setWidgets(page: Page, permalink: string, extras: Extra[], keep: boolean, styles?: Json) {
  const dashboard = (await call(page, "GET", `/api/dashboards/${permalink}`)).data as Json;
  const widgets = dashboard.widgets as Json[];
  const sourceId = ((widgets[0].instances as Json[])[0] as Json).sourceId as string;
  const base = keep ? widgets : [];
  const added = extras.map((extra, index) => ({
    id: `extra-${index}`,
    nature: "interactive",
    realTime: false,
    order: base.length + index,
    hash: `extra-${index}`,
    width: extra.width,
    height: extra.height,
    title: extra.title,
    description: null,
    format: extra.format,
    percent: false,
    hiddenChange: false,
    hiddenHighlight: false,
    rowsLimit: 15,
    orderBy: extra.orderBy ?? { column: "dimension", dir: "asc" },
    formatOptions: extra.formatOptions ?? {},
    instances: [
      {
        id: `extra-${index}-a`,
        type: extra.type,
        prefix: "a",
        sourceId,
        config: "custom",
        currency: null,
        accounts: [],
        inputs: { property: "acme-software", ...extra.inputs },
        metricsOptions: {},
      },
    ],
  }));
  const form: Record<string, string> = { widgets: JSON.stringify([...base, ...added]) };
  if (styles) form.styles = JSON.stringify(styles);
  await call(page, "POST", `/api/dashboards/${dashboard.id}`, form);
}

async function settle(page: Page) {
  await page.waitForTimeout(500);
  await page.evaluate(async () => {
    const busy = () => document.querySelectorAll("article.dash-card[aria-busy='true']").length > 0;
    for (let y = 0; y < document.documentElement.scrollHeight; y += window.innerHeight / 2) {
      window.scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    for (let waited = 0; busy() && waited < 5000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    window.scrollTo(0, 0);
  });
  await page.waitForTimeout(800);
}

const log: string[] = [];

async function shootPublic(browser: Browser, permalink: string, name: string) {
  for (const [viewport, tag] of [
    [{ width: 1280, height: 900 }, "1280"],
    [{ width: 390, height: 844 }, "390"],
  ] as const) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(`PAGEERROR ${e.message}`));
    await page.goto(`/dashboards/${permalink}`);
    try {
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible({ timeout: 20_000 });
    } catch {
      await page.screenshot({ path: `${OUT}/${name}-${tag}-FAILED.png`, fullPage: true });
      log.push(`${name} ${tag}: NO HEADING errors=${errors.join(" | ")}`);
      await context.close();
      continue;
    }
    await settle(page);
    await page.screenshot({ path: `${OUT}/${name}-${tag}.png`, fullPage: true });
    await page.screenshot({ path: `${OUT}/${name}-${tag}-top.png` });
    const states = await page
      .locator("article.dash-card")
      .evaluateAll((cards) => cards.map((c) => `${c.getAttribute("aria-label")}=${c.getAttribute("data-state")}`));
    log.push(`${name} ${tag}: title="${await page.title()}" cards=${states.join(", ")} errors=${errors.join(" | ")}`);
    // Each card alone too.
    const cards = page.locator("article.dash-card");
    const count = await cards.count();
    for (let i = 0; i < count; i += 1) {
      const card = cards.nth(i);
      await card.scrollIntoViewIfNeeded();
      await page.waitForTimeout(150);
      const label = ((await card.getAttribute("aria-label")) ?? `card${i}`).replace(/\W+/g, "-");
      await card.screenshot({ path: `${OUT}/${name}-${tag}-card-${i}-${label}.png` });
    }
    await context.close();
  }
}

test("review screens", async ({ page, browser }) => {
  test.setTimeout(600_000);
  fs.mkdirSync(OUT, { recursive: true });
  await signUp(page, "Review Agency");
  await page.goto("/company/settings");
  await page.getByLabel("Site title").fill("Acme Reports");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText(/saved/i).first()).toBeVisible();
  await connectDemo(page);

  const overview = await createTemplateDashboard(page, "Website overview for Beta Corp", "website-overview");
  const seo = await createTemplateDashboard(page, "SEO for Beta Corp", "seo");
  const ads = await createTemplateDashboard(page, "Paid ads for Beta Corp", "paid-ads");
  const social = await createTemplateDashboard(page, "Social and more for Beta Corp", "website-overview");
  await setWidgets(
    page,
    social.permalink,
    [
      {
        title: "Social summary",
        format: "summary",
        width: 4,
        height: 1,
        type: "demo.social",
        inputs: { metrics: ["followers", "reach", "engagement", "engagement_rate", "posts"] },
      },
      {
        title: "Reach over time",
        format: "chart:area",
        width: 2,
        height: 2,
        type: "demo.social",
        inputs: { dimension: "date", metrics: ["reach", "engagement"] },
      },
      {
        title: "Engagement by network",
        format: "chart:radar",
        width: 2,
        height: 2,
        type: "demo.social",
        inputs: { dimension: "channel", metrics: ["engagement"] },
      },
      {
        title: "Sessions by channel radar",
        format: "chart:radar",
        width: 2,
        height: 2,
        type: "demo.analytics",
        inputs: { dimension: "channel", metrics: ["sessions", "conversions"] },
      },
      {
        title: "Engagement rate gauge",
        format: "chart:gauge",
        width: 1,
        height: 1,
        type: "demo.social",
        inputs: { metrics: ["engagement_rate"] },
        formatOptions: { minValue: 0, maxValue: 100 },
      },
      {
        title: "Bounce rate gauge",
        format: "chart:gauge",
        width: 1,
        height: 2,
        type: "demo.analytics",
        inputs: { metrics: ["bounce_rate"] },
        formatOptions: { minValue: 0, maxValue: 100 },
      },
      {
        title: "Posts by network",
        format: "table",
        width: 2,
        height: 1,
        type: "demo.social",
        inputs: { dimension: "channel", metrics: ["posts", "reach", "engagement", "engagement_rate"] },
        orderBy: { column: "a.posts", dir: "desc" },
      },
      {
        title: "Orders by country",
        format: "chart:bar",
        width: 2,
        height: 2,
        type: "demo.ecommerce",
        inputs: { dimension: "country", metrics: ["orders", "revenue"] },
        orderBy: { column: "a.orders", dir: "desc" },
      },
    ],
    false,
  );

  const dark = await createTemplateDashboard(page, "Dark theme overview", "website-overview");
  await setWidgets(page, dark.permalink, [], true, { theme: "dark" });
  const darkColours = await createTemplateDashboard(page, "Dark colours overview", "website-overview");
  await setWidgets(page, darkColours.permalink, [], true, {
    theme: "light",
    backgroundColor: "#0f172a",
    dashboardBackgroundColor: "#1e293b",
    color: "#f1f5f9",
  });

  log.push(`dark styles: ${JSON.stringify(((await call(page, "GET", `/api/dashboards/${dark.permalink}`)).data as Json).styles)}`);
  for (const [d, name] of [
    [overview, "overview"],
    [seo, "seo"],
    [ads, "ads"],
    [social, "social"],
    [dark, "dark-theme"],
    [darkColours, "dark-colours"],
  ] as const) {
    await shootPublic(browser, d.permalink, name);
  }

  // Print view at 1280: anonymous and as the owner.
  for (const [d, name] of [
    [overview, "overview"],
    [social, "social"],
    [dark, "dark-theme"],
  ] as const) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const anon = await context.newPage();
    await anon.goto(`/dashboards/${d.permalink}/print`);
    await anon
      .locator("html[data-print-ready='true']")
      .waitFor({ timeout: 30_000 })
      .catch(() => log.push(`print ${name} anon: not ready`));
    await anon.screenshot({ path: `${OUT}/print-${name}-anon-1280.png`, fullPage: true });
    log.push(`print ${name} anon: title="${await anon.title()}" url=${anon.url()}`);
    await context.close();
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/dashboards/${overview.permalink}/print`);
  await page
    .locator("html[data-print-ready='true']")
    .waitFor({ timeout: 30_000 })
    .catch(() => log.push("print owner: not ready"));
  await page.screenshot({ path: `${OUT}/print-overview-owner-1280.png`, fullPage: true });
  log.push(`print owner: title="${await page.title()}"`);

  // Owner's view of the dark dashboard, for the header buttons as the owner sees them.
  await page.goto(`/dashboards/${dark.permalink}`);
  await settle(page);
  await page.screenshot({ path: `${OUT}/dark-theme-owner-1280.png`, fullPage: true });

  fs.writeFileSync(`${OUT}/log.txt`, log.join("\n"));
});
