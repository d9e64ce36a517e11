import { expect, type Locator, type Page, type Route, test } from "./fixtures";
import { snap } from "./support";
import { callForm } from "./support-api";
import { signUp } from "./support-auth";
import { createTemplateDashboard, liveChartWidget, readyWidget, withoutViewportHint } from "./support-dashboard";

/**
 * Widgets a client can read (docs/decisions.md, "Widgets a client can read"): what the charts, the gauge and the tables show, read from
 * the drawn ECharts instance (its option and text positions) and from the page.
 */

type Json = Record<string, unknown>;

// Screenshots taken while checking these screens by eye; kept out of the repository.
const SHOTS = process.env.CHART_SHOTS;

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Creates a dashboard from the SEO template through the page; returns its permalink. */
async function seoDashboard(page: Page): Promise<string> {
  await page.goto("/dashboards/create");
  await page.getByLabel("Dashboard name").fill("SEO for Acme");
  await page.getByRole("radio", { name: "SEO" }).click();
  await page.getByRole("button", { name: "Create dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboards\/(?!create)[A-Za-z0-9_-]+/);
  return new URL(page.url()).pathname.split("/")[2];
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

/** Adds widgets to a saved dashboard the way the editor saves them (the multipart save of docs/product.md §7). */
async function addWidgets(page: Page, permalink: string, extras: Extra[]): Promise<void> {
  const dashboard = (await callForm(page, "GET", `/api/dashboards/${permalink}`)).data as Json;
  const widgets = dashboard.widgets as Json[];
  const sourceId = ((widgets[0].instances as Json[])[0] as Json).sourceId as string;
  const added = extras.map((extra, index) => ({
    id: `extra-${index}`,
    nature: "interactive",
    realTime: false,
    order: widgets.length + index,
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
  await callForm(page, "POST", `/api/dashboards/${dashboard.id}`, { widgets: JSON.stringify([...widgets, ...added]) });
}

/** The option ECharts drew in a widget card (functions left out). */
async function chartOptionOf(card: Locator): Promise<Json> {
  return card.getByRole("img").evaluate((element) => {
    const chart = (element as HTMLElement & { echartsInstance?: { getOption(): unknown } }).echartsInstance;
    return JSON.parse(JSON.stringify(chart?.getOption() ?? null));
  });
}

interface DrawnText {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Every text ECharts drew in a card, with its box in canvas pixels. */
async function drawnTexts(card: Locator): Promise<{ texts: DrawnText[]; width: number; height: number }> {
  return card.getByRole("img").evaluate((element) => {
    type Rect = {
      x: number;
      y: number;
      width: number;
      height: number;
      applyTransform(m: unknown): void;
      clone(): Rect;
    };
    type El = {
      type?: string;
      style?: { text?: string };
      getBoundingRect(): Rect;
      getComputedTransform(): unknown;
      childrenRef?: () => El[];
    };
    const chart = (
      element as HTMLElement & {
        echartsInstance?: {
          getZr(): { storage: { getDisplayList(update: boolean): El[] } };
          getWidth(): number;
          getHeight(): number;
        };
      }
    ).echartsInstance;
    if (!chart) return { texts: [], width: 0, height: 0 };
    const texts = chart
      .getZr()
      .storage.getDisplayList(true)
      .filter((item) => typeof item.style?.text === "string" && item.style.text !== "")
      .map((item) => {
        // A copy: the element's own rect is cached by zrender.
        const rect = item.getBoundingRect().clone();
        const transform = item.getComputedTransform();
        if (transform) rect.applyTransform(transform);
        return { text: String(item.style?.text), x: rect.x, y: rect.y, width: rect.width, height: rect.height };
      });
    return { texts, width: chart.getWidth(), height: chart.getHeight() };
  });
}

const overlaps = (a: DrawnText, b: DrawnText) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test("charts, gauge and tables a client can read, at 1280 px and on a phone", async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page);
  const permalink = await seoDashboard(page);
  await addWidgets(page, permalink, [
    {
      title: "Channels radar",
      format: "chart:radar",
      width: 2,
      height: 2,
      type: "demo.analytics",
      inputs: { dimension: "channel", metrics: ["sessions", "conversions"] },
    },
    {
      title: "Bounce gauge",
      format: "chart:gauge",
      width: 1,
      height: 1,
      type: "demo.analytics",
      inputs: { metrics: ["bounce_rate"] },
      formatOptions: { minValue: 0, maxValue: 100 },
    },
    {
      title: "Bounce gauge wide",
      format: "chart:gauge",
      width: 2,
      height: 1,
      type: "demo.analytics",
      inputs: { metrics: ["bounce_rate"] },
      formatOptions: { minValue: 0, maxValue: 100 },
    },
    {
      title: "Bounce gauge tall",
      format: "chart:gauge",
      width: 1,
      height: 2,
      type: "demo.analytics",
      inputs: { metrics: ["bounce_rate"] },
      formatOptions: { minValue: 0, maxValue: 100 },
    },
    {
      title: "Sessions and revenue by country",
      format: "chart:bar",
      width: 2,
      height: 2,
      type: "demo.analytics",
      inputs: { dimension: "country", metrics: ["sessions", "revenue"] },
      orderBy: { column: "a.sessions", dir: "desc" },
    },
    {
      title: "Pages table",
      format: "table",
      width: 2,
      height: 1,
      type: "demo.analytics",
      inputs: { dimension: "page", metrics: ["sessions", "bounce_rate"] },
      orderBy: { column: "a.sessions", dir: "desc" },
    },
    {
      title: "Position trend",
      format: "chart:line",
      width: 2,
      height: 2,
      type: "demo.search",
      inputs: { dimension: "date", metrics: ["position"] },
    },
    {
      title: "Click rate alone",
      format: "summary",
      width: 2,
      height: 1,
      type: "demo.search",
      inputs: {
        metrics: [],
        calculatedMetrics: [
          { id: "cr", name: "Click rate", type: "average:percent", expression: "clicks / impressions * 100" },
        ],
      },
    },
  ]);

  for (const [viewport, name] of [
    [{ width: 1280, height: 900 }, "desktop"],
    [{ width: 390, height: 844 }, "phone"],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.goto(`/dashboards/${permalink}`);
    for (const title of [
      "Channels radar",
      "Bounce gauge",
      "Sessions and revenue by country",
      "Pages table",
      "Click rate alone",
      "Top queries",
    ]) {
      const card = await readyWidget(page, title);
      if (SHOTS) await card.screenshot({ path: `${SHOTS}/${name}-${title.replace(/\W+/g, "-")}.png` });
    }
    await shot(page, `charts-${name}`);

    // Bars by country beside a second axis stand upright: every bar is named under it (turned and cut short
    // when the names do not fit), not every other one.
    const bars = await liveChartWidget(page, "Sessions and revenue by country");
    const countries = ((await chartOptionOf(bars)).xAxis as Json[])[0].data as string[];
    expect(countries.length).toBeGreaterThan(5);
    const drawnNames = (await drawnTexts(bars)).texts
      .map((text) => text.text.replace(/(\.\.\.|…)$/, ""))
      .filter((text) => text.length >= 3 && countries.some((country) => country.startsWith(text)));
    expect(drawnNames, `country names drawn (${name})`).toHaveLength(countries.length);

    // Radar over channels: one spoke per channel, one polygon per metric and period; legend below it.
    const radar = await liveChartWidget(page, "Channels radar");
    const radarOption = await chartOptionOf(radar);
    const indicator = ((radarOption.radar as Json[])[0].indicator as Json[]).map((spoke) => spoke.name);
    expect(indicator).toEqual(expect.arrayContaining(["Organic Search", "Direct"]));
    expect(indicator.length).toBeGreaterThanOrEqual(4);
    const polygons = ((radarOption.series as Json[])[0].data as Json[]).map((item) => item.name);
    expect(polygons).toEqual(["Sessions", "Sessions (previous)", "Conversions", "Conversions (previous)"]);
    const radarTexts = await drawnTexts(radar);
    const legendTexts = radarTexts.texts.filter((text) => polygons.includes(text.text));
    const spokeTexts = radarTexts.texts.filter((text) => indicator.includes(text.text));
    expect(legendTexts.length).toBeGreaterThan(0);
    for (const legendText of legendTexts) {
      for (const spoke of spokeTexts)
        expect(overlaps(legendText, spoke), `${legendText.text} / ${spoke.text}`).toBe(false);
    }

    // Clicks beside impressions: a second value axis, impressions on the right.
    const line = await liveChartWidget(page, "Clicks and impressions");
    const lineOption = await chartOptionOf(line);
    const yAxes = lineOption.yAxis as Json[];
    expect(yAxes).toHaveLength(2);
    expect(yAxes[1].show).toBe(true);
    const lineSeries = lineOption.series as Json[];
    expect(lineSeries.find((item) => item.name === "Clicks")?.yAxisIndex).toBe(0);
    expect(lineSeries.find((item) => item.name === "Impressions")?.yAxisIndex).toBe(1);

    // Gauges (small, wide, tall): the whole value is drawn inside the canvas and never over its label.
    for (const title of ["Bounce gauge", "Bounce gauge wide", "Bounce gauge tall"]) {
      const gauge = await liveChartWidget(page, title);
      if (SHOTS) await gauge.screenshot({ path: `${SHOTS}/${name}-${title.replace(/\W+/g, "-")}.png` });
      const gaugeTexts = await drawnTexts(gauge);
      // Demo bounce rates are 40–50 %: both digits before the point are drawn.
      const value = gaugeTexts.texts.find((text) => /^\d{2}(\.\d{1,2})?%$/.test(text.text));
      const label = gaugeTexts.texts.find((text) => text.text === "Bounce Rate");
      expect(value, `${title}: ${JSON.stringify(gaugeTexts.texts)}`).toBeDefined();
      expect(label, title).toBeDefined();
      // No two texts (value, name, the scale's min and max) are drawn over each other.
      const plain = gaugeTexts.texts.filter((text) => !text.text.includes("{") && text.text.trim() !== "");
      for (const [index, first] of plain.entries()) {
        for (const second of plain.slice(index + 1)) {
          expect(overlaps(first, second), `${title}: ${first.text} / ${second.text}`).toBe(false);
        }
      }
      if (value && label) {
        // The value lies inside the arc (the arc drawn over its first digit made 44.92 % read 4.92 %).
        const series = ((await chartOptionOf(gauge)).series as Json[])[0];
        const arcWidth = Number(((series.axisLine as Json).lineStyle as Json).width);
        const radius =
          (Number.parseFloat(String(series.radius)) / 100) * (Math.min(gaugeTexts.width, gaugeTexts.height) / 2);
        const [cx, cy] = (series.center as string[]).map(
          (share, index) => (Number.parseFloat(share) / 100) * (index === 0 ? gaugeTexts.width : gaugeTexts.height),
        );
        for (const [x, y] of [
          [value.x, value.y],
          [value.x + value.width, value.y],
          [value.x, value.y + value.height],
          [value.x + value.width, value.y + value.height],
        ]) {
          expect(Math.hypot(x - cx, y - cy), `${title}: ${value.text} inside the arc`).toBeLessThanOrEqual(
            radius - arcWidth,
          );
        }
        for (const text of [value, label]) {
          expect(text.x, title).toBeGreaterThanOrEqual(0);
          expect(text.x + text.width, title).toBeLessThanOrEqual(gaugeTexts.width);
          expect(text.y + text.height, title).toBeLessThanOrEqual(gaugeTexts.height);
        }
      }
    }

    // A 2x1 table shows several rows, and no column is cut off.
    const table = await readyWidget(page, "Pages table");
    await expect(table.locator("tbody tr").first()).toBeVisible();
    // Rows wholly in view between the sticky header and the sticky total.
    const visibleRows = await table.locator("tbody tr").evaluateAll((rows) => {
      const tableElement = rows[0]?.closest("table");
      const scroller = tableElement?.parentElement;
      const head = tableElement?.querySelector("thead")?.getBoundingClientRect();
      const foot = tableElement?.querySelector("tfoot")?.getBoundingClientRect();
      if (!scroller || !head || !foot) return 0;
      const box = scroller.getBoundingClientRect();
      const top = Math.max(box.top, head.bottom);
      const bottom = Math.min(box.bottom, foot.top);
      return rows.filter((row) => {
        const rect = row.getBoundingClientRect();
        return rect.top >= top - 1 && rect.bottom <= bottom + 1;
      }).length;
    });
    expect(visibleRows).toBeGreaterThanOrEqual(3);
    // More rows than fit: a shadow over the sticky total says so, and goes once the last row is in view.
    const scroller = table.locator(".dash-table-scroll");
    // Whether the shade above the total row shows.
    const totalShadow = () =>
      table
        .locator("tfoot td")
        .first()
        .evaluate((cell) => Number(getComputedStyle(cell, "::before").opacity) > 0);
    expect(await scroller.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
    await expect.poll(totalShadow).toBe(true);
    await scroller.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
    await expect.poll(totalShadow).toBe(false);
    await scroller.evaluate((element) => element.scrollTo({ top: 0 }));
    const queries = await readyWidget(page, "Top queries");
    const header = queries.getByRole("columnheader", { name: "Avg. Position" });
    await expect(header).toBeVisible();
    // Every column fits the card, on a phone too.
    const cut = () =>
      queries.locator("table").evaluate((element) => {
        const card = element.closest("article")?.getBoundingClientRect();
        const heads = Array.from(element.querySelectorAll("thead th")).map((cell) => cell.getBoundingClientRect());
        return card ? heads.filter((rect) => rect.right > card.right + 1 || rect.left < card.left - 1).length : -1;
      });
    expect(await cut()).toBe(0);

    // A calculated metric alone has data.
    const alone = await readyWidget(page, "Click rate alone");
    await expect(alone.getByText("Click rate", { exact: true })).toBeVisible();
    await expect(alone.getByText(/^\d+(\.\d+)?%$/).first()).toBeVisible();

    // Average position is lower-is-better: its change reads green when it falls, red when it rises.
    const summary = await readyWidget(page, "Search performance");
    const tones = await summary
      .locator("[data-change]")
      .evaluateAll((items) => items.map((item) => [item.getAttribute("data-change"), item.getAttribute("data-tone")]));
    expect(tones).toHaveLength(4);
    const [position] = tones.slice(3);
    if (position[0] !== "flat") expect(position[1]).toBe(position[0] === "up" ? "bad" : "good");
    for (const [direction, tone] of tones.slice(0, 3)) {
      if (direction !== "flat") expect(tone).toBe(direction === "up" ? "good" : "bad");
    }
    // …and so in chart tooltips: a rising average position is red.
    const trend = await liveChartWidget(page, "Position trend");
    const tips: string[][] = [];
    for (const dataIndex of [2, 5, 9]) {
      await trend.getByRole("img").evaluate((element, index) => {
        const chart = (element as HTMLElement & { echartsInstance?: { dispatchAction(action: unknown): void } })
          .echartsInstance;
        chart?.dispatchAction({ type: "showTip", seriesIndex: 0, dataIndex: index });
      }, dataIndex);
      const change = trend.locator("[data-tone]").last();
      await expect(change).toBeVisible();
      tips.push([String(await change.textContent()), String(await change.getAttribute("data-tone"))]);
    }
    for (const [text, tone] of tips) {
      if (text.startsWith("▲")) expect(tone).toBe("bad");
      else if (text.startsWith("▼")) expect(tone).toBe("good");
    }
    expect(tips.some(([text]) => /^[▲▼]/.test(text))).toBe(true);
    if (SHOTS) await trend.screenshot({ path: `${SHOTS}/${name}-tooltip.png` });
  }

  // A custom comparison is named in the header and in chart legends, not 'previous period'.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(
    `/dashboards/${permalink}?startDate=2026-10-15&endDate=2026-10-28&compareStartDate=2026-09-01&compareEndDate=2026-09-14`,
  );
  await expect(page.getByTestId("dashboard-range-note")).toHaveText("vs Sep 1 – Sep 14");
  const radar = await liveChartWidget(page, "Channels radar");
  const polygons = (((await chartOptionOf(radar)).series as Json[])[0].data as Json[]).map((item) => item.name);
  expect(polygons).toEqual([
    "Sessions",
    "Sessions (vs Sep 1 – Sep 14)",
    "Conversions",
    "Conversions (vs Sep 1 – Sep 14)",
  ]);
  const line = await liveChartWidget(page, "Clicks and impressions");
  const lineTexts = (await drawnTexts(line)).texts.map((text) => text.text);
  expect(lineTexts).toContain("- - vs Sep 1 – Sep 14");
  expect(lineTexts.join(" ")).not.toMatch(/previous period/i);
  await shot(page, "charts-custom-compare");
});

test("the users table keeps role, status and actions on a 390 px phone", async ({ page }) => {
  await signUp(page);
  await page.goto("/company/users");
  await page.getByRole("button", { name: "Invite user" }).click();
  const dialog = page.getByRole("dialog", { name: "Invite user" });
  await dialog.getByLabel("Name").fill("Ian Invitee");
  await dialog.getByLabel("Email").fill(`ian-${Date.now()}@example.com`);
  await dialog.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("row", { name: /Ian Invitee/ })).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  const row = page.getByRole("row", { name: /Ian Invitee/ });
  // The phone layout is chosen by a media-query hook, so it arrives one React render after the
  // viewport changes: poll until the row has settled instead of measuring the wide layout mid-reflow.
  const inView = async (locator: Locator) => {
    await expect
      .poll(async () => {
        if (!(await locator.isVisible())) return false;
        const box = await locator.boundingBox();
        return Boolean(box && box.x >= 0 && box.x + box.width <= 390);
      })
      .toBe(true);
  };
  await inView(row.getByRole("combobox", { name: "Role of Ian Invitee" }));
  await inView(row.getByText("Invited", { exact: true }).locator("visible=true"));
  await inView(row.getByRole("link", { name: "Edit Ian Invitee" }));
  await inView(row.getByRole("button", { name: "Delete Ian Invitee" }));
  // Nothing to scroll sideways for.
  await expect
    .poll(() =>
      page.locator("table").evaluate((table) => {
        const scroller = table.parentElement as HTMLElement;
        return scroller.scrollWidth - scroller.clientWidth;
      }),
    )
    .toBeLessThanOrEqual(1);
  await shot(page, "users-phone");
});

/** An owner signs up and makes a 'Client results' template dashboard; its permalink, for visitors. */
async function sharedTemplateDashboard(page: Page): Promise<string> {
  test.setTimeout(90_000);
  await signUp(page);
  return (await createTemplateDashboard(page, "Client results")).permalink;
}

test("a shared dashboard draws its charts off the page's thread, and the live chart takes over under the pointer", async ({
  page,
  browser,
}) => {
  const permalink = await sharedTemplateDashboard(page);

  // A client opening the shared link on a phone: each chart is first an SVG drawn by ECharts in a worker
  // (charts/chart-snapshots.ts), with no canvas chart on the page yet.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const visitor = await phone.newPage();
  await visitor.goto(`/dashboards/${permalink}`);
  const trend = await readyWidget(visitor, "Sessions and users");
  const area = trend.getByRole("img", { name: "Sessions and users chart" });
  const snapshot = area.locator(".echart-snapshot svg");
  await expect(snapshot).toBeVisible();
  await expect(area.locator("canvas")).toHaveCount(0);
  // A chart a client can read: drawn at the card's size, with its legend and dated axis as text.
  const [areaBox, svgBox] = [await area.boundingBox(), await snapshot.boundingBox()];
  expect(Math.abs((svgBox?.width ?? 0) - (areaBox?.width ?? 0))).toBeLessThan(2);
  expect(Math.abs((svgBox?.height ?? 0) - (areaBox?.height ?? 0))).toBeLessThan(2);
  const texts = await snapshot.locator("text").allTextContents();
  expect(texts).toEqual(expect.arrayContaining(["Sessions", "Users"]));
  const days = texts.filter((text) => /^[A-Z][a-z]{2} \d{2}$/.test(text));
  expect(days.length).toBeGreaterThanOrEqual(3);
  // The axis labels do not run into each other on a phone.
  const labels = await snapshot.locator("text").evaluateAll((items) =>
    items
      .filter((item) => /^[A-Z][a-z]{2} \d{2}$/.test(item.textContent ?? ""))
      .map((item) => item.getBoundingClientRect())
      .map((box) => ({ left: box.left, right: box.right })),
  );
  for (let i = 1; i < labels.length; i++) expect(labels[i].left).toBeGreaterThan(labels[i - 1].right);
  // On a phone, 'Top pages' scrolls under its sticky total, shaded to say so; 'Channels' fits, unshaded.
  const shaded = async (title: string) => {
    const table = await readyWidget(visitor, title);
    const scroller = table.locator(".dash-table-scroll");
    return {
      scrolls: await scroller.evaluate((element) => element.scrollHeight > element.clientHeight),
      shade: await table
        .locator("tfoot td")
        .first()
        .evaluate((cell) => Number(getComputedStyle(cell, "::before").opacity)),
    };
  };
  // Polled: a scroll timeline updates its animation on the next frame.
  await expect.poll(() => shaded("Top pages")).toEqual({ scrolls: true, shade: 1 });
  await expect.poll(() => shaded("Channels")).toEqual({ scrolls: false, shade: 0 });
  await snap(visitor, "public-phone-chart-snapshots");

  // Touching the chart brings the live chart, with the tooltip of the day touched.
  await area.tap({ position: { x: (areaBox?.width ?? 300) * 0.5, y: (areaBox?.height ?? 200) * 0.6 } });
  await expect(area.locator("canvas").first()).toBeVisible();
  await expect(area.locator(".echart-snapshot")).toHaveCount(0);
  await expect(area.getByText("Sessions (previous)")).toBeVisible();
  await phone.close();

  // At 1280 px the pie is a snapshot too; pointing at it makes it live.
  const desk = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await desk.goto(`/dashboards/${permalink}`);
  const devices = await readyWidget(desk, "Devices");
  const pie = devices.getByRole("img", { name: "Devices chart" });
  await expect(pie.locator(".echart-snapshot svg")).toBeVisible();
  expect(await pie.locator(".echart-snapshot text").allTextContents()).toEqual(
    expect.arrayContaining(["desktop", "mobile", "tablet"]),
  );
  await pie.hover();
  await expect(pie.locator("canvas").first()).toBeVisible();
  await expect(pie.locator(".echart-snapshot")).toHaveCount(0);
  await desk.context().close();
});

test("the owner's dashboard shows each chart's snapshot first, then the live chart with its tooltip", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signUp(page);
  const { permalink } = await createTemplateDashboard(page, "Drawn before it is live");
  // The page's own echarts (what the live charts are made with) is held back: until it comes, the owner
  // sees every chart as the worker's SVG drawing of the same option (charts/live-queue.ts).
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/echarts-setup-[^/]*\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/dashboards/${permalink}`);
  for (const [title, names] of [
    ["Sessions and users", ["Sessions", "Users"]],
    ["Devices", ["desktop", "mobile", "tablet"]],
  ] as const) {
    const card = await readyWidget(page, title);
    const chart = card.getByRole("img", { name: `${title} chart` });
    await expect(chart.locator(".echart-snapshot svg")).toBeVisible();
    expect(await chart.locator(".echart-snapshot text").allTextContents()).toEqual(expect.arrayContaining([...names]));
    await expect(chart.locator("canvas")).toHaveCount(0);
    await expect(chart).not.toHaveAttribute("data-live", "true");
  }
  // The dated axis reads as days, drawn at the card's size.
  const area = page.getByRole("img", { name: "Sessions and users chart" });
  const texts = await area.locator(".echart-snapshot text").allTextContents();
  expect(texts.filter((text) => /^[A-Z][a-z]{2} \d{2}$/.test(text)).length).toBeGreaterThanOrEqual(3);
  const [areaBox, svgBox] = [await area.boundingBox(), await area.locator(".echart-snapshot svg").boundingBox()];
  expect(Math.abs((svgBox?.width ?? 0) - (areaBox?.width ?? 0))).toBeLessThan(2);

  // Once the code is in, each chart goes live by itself when the page is idle, the snapshot replaced.
  release();
  for (const title of ["Sessions and users", "Devices"]) {
    const chart = (await liveChartWidget(page, title)).getByRole("img", { name: `${title} chart` });
    await expect(chart.locator("canvas").first()).toBeVisible();
    await expect(chart.locator(".echart-snapshot")).toHaveCount(0);
  }
  // The live chart's drawing is the same chart: its legend names the same series.
  const drawn = (await drawnTexts(page.getByRole("article", { name: "Sessions and users", exact: true }))).texts;
  expect(drawn.map((text) => text.text)).toEqual(expect.arrayContaining(["Sessions", "Users"]));
  // Pointing at a day shows its tooltip.
  await area.hover({ position: { x: (areaBox?.width ?? 300) * 0.5, y: (areaBox?.height ?? 200) * 0.6 } });
  await expect(area.getByText("Sessions (previous)")).toBeVisible();
});

test("the owner's dashboard draws its first charts on the server, opened again from the snapshots this browser kept, never starting the worker, and signing out forgets them", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signUp(page);
  const { permalink } = await createTemplateDashboard(page, "Drawn once");
  // As a browser that says nothing of its viewport: a Chromium's page comes with its drawings in it
  // (member-view.spec.ts); this one's drawings are the page's own to ask for and keep.
  await withoutViewportHint(page);
  // The live charts are held back (their echarts never comes), so what the owner sees is each snapshot.
  await page.route(/\/assets\/echarts-setup-[^/]*\.js$/, () => {});
  // Every chart the worker is asked to draw, and every worker started, counted on each load of the page.
  await page.addInitScript(`
    window.__workerDrawings = 0;
    window.__workersStarted = 0;
    const NativeWorker = window.Worker;
    window.Worker = class extends NativeWorker {
      constructor(...args) {
        super(...args);
        window.__workersStarted += 1;
      }
    };
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (message, ...rest) {
      if (message && message.input) window.__workerDrawings += 1;
      return post.call(this, message, ...rest);
    };
  `);
  // Every chart the server drew for the page (POST /api/chart-snapshots, one request per group of charts).
  let serverDrawings = 0;
  page.on("response", async (response) => {
    if (!response.url().endsWith("/api/chart-snapshots")) return;
    const { data } = (await response.json()) as { data: Array<{ svg?: string }> };
    serverDrawings += data.filter((item) => item.svg?.startsWith("<svg")).length;
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/dashboards/${permalink}`);
  const titles = ["Sessions and users", "Devices"];
  const first = new Map<string, string>();
  for (const title of titles) {
    const chart = (await readyWidget(page, title)).getByRole("img", { name: `${title} chart` });
    first.set(title, await chart.locator(".echart-snapshot").innerHTML());
  }
  // The first drawings are the server's: the page starts no worker and loads no ECharts to draw them.
  const drawnFirst = serverDrawings;
  expect(drawnFirst).toBeGreaterThanOrEqual(titles.length);
  expect(await page.evaluate(() => (window as unknown as { __workerDrawings: number }).__workerDrawings)).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __workersStarted: number }).__workersStarted)).toBe(0);
  const kept = () =>
    page.evaluate(async () => {
      let count = 0;
      for (const name of await caches.keys())
        if (name.startsWith("chart-snapshots:")) count += (await (await caches.open(name)).keys()).length;
      return count;
    });
  await expect.poll(kept).toBeGreaterThanOrEqual(drawnFirst);

  // Opened again: the same drawings, none of them asked of the worker or the server.
  serverDrawings = 0;
  await page.reload();
  for (const title of titles) {
    const chart = (await readyWidget(page, title)).getByRole("img", { name: `${title} chart` });
    expect(await chart.locator(".echart-snapshot").innerHTML()).toBe(first.get(title));
    await expect(chart.locator("canvas")).toHaveCount(0);
  }
  await expect(page.locator('article.dash-card[data-ready="false"]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __workerDrawings: number }).__workerDrawings)).toBe(0);
  expect(serverDrawings).toBe(0);
  // Every drawing found: the worker (and the ECharts it loads) is not even started.
  expect(await page.evaluate(() => (window as unknown as { __workersStarted: number }).__workersStarted)).toBe(0);

  // Signing out (from the app's navigation) deletes them.
  await page.goto("/company/sources");
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login/);
  expect(await kept()).toBe(0);
});

test("the owner's first drawings fall back to the browser's worker when the server cannot draw one or any", async ({
  browser,
  page,
}) => {
  await signUp(page);
  const { permalink } = await createTemplateDashboard(page, "Drawn here");
  const state = await page.context().storageState();
  const answers = {
    // The server has no bundle to draw with (the web app not built on it): every chart is the worker's.
    "server cannot draw": (route: Route) =>
      route.fulfill({ status: 503, json: { code: "unavailable", message: "Charts are drawn by the browser." } }),
    // One chart refused (its input), the others drawn: the refused one is the worker's.
    "one chart refused": async (route: Route) => {
      const answer = await route.fetch();
      const { data } = (await answer.json()) as { data: unknown[] };
      await route.fulfill({
        response: answer,
        json: { data: data.map((item, i) => (i === 0 ? { error: "Refused." } : item)) },
      });
    },
  };
  for (const [failure, answer] of Object.entries(answers)) {
    const context = await browser.newContext({ storageState: state, viewport: { width: 1280, height: 900 } });
    // The page's own request for its drawings (a Chromium's page carries them: member-view.spec.ts).
    await withoutViewportHint(context);
    await context.route(/\/api\/chart-snapshots$/, answer);
    // The live charts are held back, so what is on screen is each snapshot, whoever drew it.
    await context.route(/\/assets\/echarts-setup-[^/]*\.js$/, () => {});
    const owner = await context.newPage();
    const workers: string[] = [];
    owner.on("worker", (worker) => workers.push(worker.url()));
    await owner.goto(`/dashboards/${permalink}`);
    for (const title of ["Sessions and users", "Devices"]) {
      const chart = (await readyWidget(owner, title)).getByRole("img", { name: `${title} chart` });
      await expect(chart.locator(".echart-snapshot svg"), failure).toBeVisible();
      await expect(chart.locator("canvas"), failure).toHaveCount(0);
    }
    await expect(owner.locator('article.dash-card[data-ready="false"]'), failure).toHaveCount(0);
    expect(
      workers.some((url) => /chart-svg\.worker/.test(url)),
      failure,
    ).toBe(true);
    await context.close();
  }
});

test("a shared dashboard whose chart worker cannot load or fails draws its charts live instead, never a blank card", async ({
  browser,
  page,
}) => {
  const permalink = await sharedTemplateDashboard(page);

  // The snapshots' worker script (chart-svg.worker-<hash>.js in the build) does not load (blocked by a
  // proxy, gone after a deploy) or throws as it starts: each chart is drawn live, on canvas, instead
  // (chart-snapshots.ts marks the worker broken; EChart.tsx goes live when a snapshot cannot be drawn).
  const failures = {
    "cannot load": (route: Route) => route.abort(),
    fails: (route: Route) =>
      route.fulfill({ contentType: "text/javascript", body: 'throw new Error("The chart worker is broken.");' }),
  };
  for (const [failure, answer] of Object.entries(failures)) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const asked: string[] = [];
    await context.route(/\/chart-svg\.worker[^/]*\.js(\?.*)?$/, (route) => {
      asked.push(route.request().url());
      return answer(route);
    });
    const visitor = await context.newPage();
    await visitor.goto(`/dashboards/${permalink}`);
    const trend = await readyWidget(visitor, "Sessions and users");
    const area = trend.getByRole("img", { name: "Sessions and users chart" });
    await expect(area.locator("canvas").first(), failure).toBeVisible();
    await expect(area.locator(".echart-snapshot"), failure).toHaveCount(0);
    // The page did ask for the worker: the fallback was taken, not the worker skipped.
    expect(asked.length, failure).toBeGreaterThan(0);
    // A card a client can read: its title, and a chart drawn at the card's size with its legend.
    await expect(trend.getByRole("heading", { level: 2, name: "Sessions and users" }), failure).toBeVisible();
    const canvasBox = await area.locator("canvas").first().boundingBox();
    const areaBox = await area.boundingBox();
    expect(canvasBox?.width ?? 0, failure).toBeGreaterThan(100);
    expect(canvasBox?.height ?? 0, failure).toBeGreaterThan(50);
    expect(Math.abs((canvasBox?.width ?? 0) - (areaBox?.width ?? 0)), failure).toBeLessThan(2);
    const drawn = (await drawnTexts(trend)).texts.map((text) => text.text);
    expect(drawn, failure).toEqual(expect.arrayContaining(["Sessions", "Users"]));
    // The page's other charts are drawn live as well.
    const pie = (await readyWidget(visitor, "Devices")).getByRole("img", { name: "Devices chart" });
    await expect(pie.locator("canvas").first(), failure).toBeVisible();
    await expect(pie.locator(".echart-snapshot"), failure).toHaveCount(0);
    await context.close();
  }
});

test("a shared dashboard's chart snapshot is drawn anew at the card's new size when the viewport widens", async ({
  browser,
  page,
}) => {
  const permalink = await sharedTemplateDashboard(page);

  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const visitor = await context.newPage();
  await visitor.goto(`/dashboards/${permalink}`);
  const area = (await readyWidget(visitor, "Sessions and users")).getByRole("img", {
    name: "Sessions and users chart",
  });
  const snapshot = area.locator(".echart-snapshot svg");
  await expect(snapshot).toBeVisible();
  /** The snapshot's drawn size (its SVG's attributes) beside the chart area's size, in CSS pixels. */
  const sizes = () =>
    area.evaluate((element) => {
      const svg = element.querySelector(".echart-snapshot svg");
      return {
        svg: { width: Number(svg?.getAttribute("width")), height: Number(svg?.getAttribute("height")) },
        area: { width: element.clientWidth, height: element.clientHeight },
      };
    });
  const phone = await sizes();
  expect(Math.abs(phone.svg.width - phone.area.width)).toBeLessThan(2);
  expect(phone.area.width).toBeLessThan(390);
  // Marks the chart's element and its SVG: the same chart must redraw (EChart's ResizeObserver), not be
  // mounted anew, and its snapshot must be a new SVG.
  await area.evaluate((element) => {
    Object.assign(element, { e2eBeforeResize: true });
    Object.assign(element.querySelector(".echart-snapshot svg") ?? {}, { e2eBeforeResize: true });
  });

  // Wider: the card grows, and its snapshot is drawn again at the new size (not the phone's SVG stretched).
  await visitor.setViewportSize({ width: 1280, height: 900 });
  const wide = (await readyWidget(visitor, "Sessions and users")).getByRole("img", {
    name: "Sessions and users chart",
  });
  await expect(wide.locator(".echart-snapshot svg")).toBeVisible();
  await expect
    .poll(async () => {
      const now = await sizes();
      return (
        now.area.width !== phone.area.width &&
        Math.abs(now.svg.width - now.area.width) < 3 &&
        Math.abs(now.svg.height - now.area.height) < 3
      );
    })
    .toBe(true);
  const desk = await sizes();
  expect(desk.svg.width).not.toBe(phone.svg.width);
  expect(
    await wide.evaluate((element) => [
      "e2eBeforeResize" in element,
      "e2eBeforeResize" in (element.querySelector(".echart-snapshot svg") ?? { e2eBeforeResize: true }),
    ]),
  ).toEqual([true, false]);
  // Still the snapshot: resizing is not the reader pointing at the chart.
  await expect(wide.locator("canvas")).toHaveCount(0);
  const svgBox = await wide.locator(".echart-snapshot svg").boundingBox();
  expect(Math.abs((svgBox?.width ?? 0) - desk.area.width)).toBeLessThan(3);
  await context.close();
});
