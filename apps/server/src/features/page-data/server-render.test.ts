import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CHART_SNAPSHOTS_MAX_ITEMS, type TInteractiveWidget, type TWidget } from "@app/core";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDashboard, buildOwner, buildSource } from "../../../test/factories";
import { describeEachDb, TestClient } from "../../../test/harness";
import { until } from "../../../test/wait";
import { buildWebServerBundle } from "../../../test/web-build";
import { buildApp } from "../../app";
import type { App } from "../../infra/http";
import { SESSION_COOKIE } from "../../infra/http";
import { MAX_CONCURRENT_RENDERS, serverBundle, viewerZone } from "./server-render";

/**
 * A public viewer's dashboard arrives rendered by the server (the web build's server bundle,
 * apps/web/src/ssr/server-entry.tsx), its cards drawn from the API's own answers. The bundle is built
 * here, once, beside a page template shaped like the web build's index.html.
 */
let buildDir = "";

const TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <title>Reportz</title>
    <link rel="stylesheet" crossorigin href="/assets/index-1.css">
    <!--page-data-->
    <script type="module" crossorigin src="/assets/index-1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/render-1.js" data-start>
  </head>
  <body>
    <div id="root"><svg aria-label="Loading" role="img"><circle cx="6" cy="6" r="5" /></svg></div>
  </body>
</html>`;

beforeAll(() => {
  buildDir = fs.mkdtempSync(path.join(os.tmpdir(), "ssr-build-"));
  fs.mkdirSync(path.join(buildDir, "dist"));
  fs.writeFileSync(path.join(buildDir, "dist", "index.html"), TEMPLATE);
  buildWebServerBundle(path.join(buildDir, "dist-ssr"));
}, 120_000);

afterAll(() => {
  fs.rmSync(buildDir, { recursive: true, force: true });
});

it.each([
  [undefined, "UTC"],
  ["Europe/Paris", "Europe/Paris"],
  ["America/Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires"],
  ["Not/AZone", "UTC"],
  ["x".repeat(65), "UTC"],
])("the viewer's zone from the cookie %j is %j", (cookie, zone) => {
  expect(viewerZone(cookie)).toBe(zone);
});

/** The JSON of a `<script id=… type="application/json">` in the page. */
function jsonScript(html: string, id: string): unknown {
  const match = new RegExp(`<script id="${id}" type="application/json"[^>]*>([^<]*)</script>`).exec(html);
  return match ? JSON.parse(match[1]) : null;
}

/** An attribute's text as the page escapes it, read back. */
function unescapeHtml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** A widget's card (its `<article>`, opening tag to end) in the page. */
function cardOf(html: string, widgetId: string): string {
  const match = new RegExp(`<article[^>]*data-widget-id="${widgetId}"[^>]*>[\\s\\S]*?</article>`).exec(html);
  if (!match) throw new Error(`no card for widget ${widgetId}`);
  return match[0];
}

type SsrState = {
  timezone: string;
  complete: boolean;
  queries: { queries: Array<{ queryKey: unknown[]; state: { data: unknown } }> };
};

describeEachDb("the public view rendered by the server", (env) => {
  let app: App;
  let offApp: App;

  beforeAll(async () => {
    const webDist = path.join(buildDir, "dist");
    const ctx = env().ctx;
    app = await buildApp(
      { ...ctx, config: { ...ctx.config, publicViewSsr: { enabled: true, budgetMs: 5000 } } },
      { webDist },
    );
    offApp = await buildApp(
      { ...ctx, config: { ...ctx.config, publicViewSsr: { enabled: false, budgetMs: 5000 } } },
      { webDist },
    );
    await Promise.all([app.ready(), offApp.ready()]);
  });
  afterAll(async () => {
    await Promise.all([app.close(), offApp.close()]);
  });

  const get = async (target: App, url: string, cookie = "") => {
    const response = await target.inject({ url, headers: { accept: "text/html", cookie } });
    expect(response.statusCode).toBe(200);
    return response.body;
  };

  it("a German client's page says its language and reads in German (docs/product.md §9, 'Report language')", async () => {
    const { client: owner } = await buildOwner(env());
    const created = await owner.api("POST", "/api/dashboards", { name: "Übersicht", template: "website-overview" });
    const { permalink } = created.json().data as { permalink: string };
    const { id } = (await owner.api("GET", `/api/dashboards/${permalink}`)).json().data as { id: string };
    expect((await owner.apiMultipart("POST", `/api/dashboards/${id}`, { language: "de" })).statusCode).toBe(200);
    const html = await get(app, `/dashboards/${permalink}`, "tz=Europe%2FBerlin");

    expect(html).toMatch(/<html [^>]*lang="de"/);
    const state = jsonScript(html, "ssr-state") as SsrState;
    expect(state.complete).toBe(true);
    // The catalogue travels with the page, so the browser hydrates the same words.
    const catalogues = state.queries.queries.filter((query) => query.queryKey[0] === "messages");
    expect(catalogues.map((query) => query.queryKey)).toEqual([["messages", "de"]]);
    const messages = catalogues[0];
    const catalogue = (messages?.state.data ?? {}) as Record<string, string>;
    expect(catalogue["widget.noData"]).toBe("Keine Daten für diesen Zeitraum");
    // The range in German dates ("1. Nov. 2026 – 28. Nov. 2026"), not English ones.
    expect(html).toMatch(/\d{1,2}\. [A-Z][a-zä]{2,3}\.? \d{4} – \d{1,2}\. [A-Z][a-zä]{2,3}\.? \d{4}/);
    expect(html).not.toMatch(/[A-Z][a-z]{2} \d{2}, \d{4} - /);
    // A table's total row, and its numbers with German separators ("103.399", "45,99 %").
    expect(html).toContain('<th scope="row">Gesamt</th>');
    expect(html).toMatch(/>\d{1,3}\.\d{3}</);
    expect(html).toMatch(/>\d{1,2},\d{1,2}\u00a0%</);
    // The app's page for the agency stays English.
    expect(await get(app, `/dashboards/${permalink}`, `${SESSION_COOKIE}=${owner.cookie(SESSION_COOKIE)}`)).toMatch(
      /<html [^>]*lang="en"/,
    );
  });

  it("shows every card with the API's own numbers, in the viewer's zone, and starts no app", async () => {
    const { client: owner } = await buildOwner(env());
    const created = await owner.api("POST", "/api/dashboards", { name: "Overview", template: "website-overview" });
    const { permalink } = created.json().data as { permalink: string };
    const html = await get(app, `/dashboards/${permalink}`, "tz=Asia%2FTokyo");

    const state = jsonScript(html, "ssr-state") as SsrState;
    expect(state).toMatchObject({ timezone: "Asia/Tokyo", complete: true });
    const dashboard = await owner.api("GET", `/api/dashboards/${permalink}?timezone=Asia%2FTokyo`);
    const widgets = dashboard.json().data.widgets as Array<{ id: string; title: string; format: string }>;
    expect(widgets.length).toBe(5);

    // Every card, named by its title, inside the app's root (the loader is gone).
    const root = html.slice(html.indexOf('<div id="root">'));
    expect(root).not.toContain('aria-label="Loading"');
    for (const widget of widgets) {
      expect(root).toContain(`data-widget-id="${widget.id}"`);
      expect(root).toContain(`aria-label="${widget.title}"`);
    }

    // The key figures read what the widget's own data route answers for the same range and zone.
    const summary = widgets.find((widget) => widget.format === "summary");
    const range = state.queries.queries.find((query) => query.queryKey[0] === "widget-data")?.queryKey[2] as {
      startDate: string;
      endDate: string;
      timezone: string;
    };
    expect(range.timezone).toBe("Asia/Tokyo");
    const data = await owner.api("POST", `/api/dashboards/${permalink}/widgets/${summary?.id}/data`, {
      startDate: range.startDate,
      endDate: range.endDate,
      comparison: true,
      timezone: "Asia/Tokyo",
    });
    const sessions = (data.json().data.current as { totals: Array<number | null> }).totals[0];
    expect(sessions).toBeGreaterThan(0);
    expect(root).toContain(`>${(sessions as number).toLocaleString("en-US")}<`);

    // Charts carry the input they are drawn from (the page draws them without the app).
    const inputs = [...root.matchAll(/data-chart-input="([^"]*)"/g)].map((match) =>
      JSON.parse(match[1].replaceAll("&quot;", '"').replaceAll("&amp;", "&").replaceAll("&#x27;", "'")),
    );
    expect(inputs.map((input) => input.widget.format).sort()).toEqual(["chart:line", "chart:pie"]);
    expect(inputs.every((input) => input.current.rows.length > 0)).toBe(true);

    // No start of the app: its preloads are inert (kept in a template for a browser in another zone,
    // web main.tsx), the boot header is not needed; Mantine's light scheme is set.
    const [head, inert] = [
      html.replace(/<template id="start-preloads">[\s\S]*?<\/template>/, ""),
      /<template id="start-preloads">([\s\S]*?)<\/template>/.exec(html)?.[1],
    ];
    expect(head).not.toContain("data-start");
    expect(inert).toBe('<link rel="modulepreload" crossorigin href="/assets/render-1.js" data-start>');
    expect(html).not.toContain("boot-view");
    expect(html).toContain('<html data-mantine-color-scheme="light" lang="en">');
    expect(html).toContain('<script type="module" crossorigin src="/assets/index-1.js">');
  });

  it("a member's own dashboard arrives rendered as the app renders it, in the member's zone, figures and chart inputs in", async () => {
    const { client: owner, company, user } = await buildOwner(env(), { user: { timezone: "Europe/Berlin" } });
    const { permalink } = await buildDashboard(env(), {
      company,
      user,
      name: "Agency overview",
      template: "website-overview",
    });
    const session = `${SESSION_COOKIE}=${owner.cookie(SESSION_COOKIE)}`;
    const html = await get(app, `/dashboards/${permalink}`, `${session}; tz=Asia%2FTokyo`);

    // The member's zone, not the browser's cookie: the app computes the member's ranges in it.
    const state = jsonScript(html, "ssr-state") as SsrState & { view: string };
    expect(state).toMatchObject({ timezone: "Europe/Berlin", view: "member", complete: true });
    const ranges = state.queries.queries
      .filter((query) => query.queryKey[0] === "widget-data")
      .map((query) => (query.queryKey[2] as { timezone: string }).timezone);
    expect(ranges.length).toBe(5);
    expect(new Set(ranges)).toEqual(new Set(["Europe/Berlin"]));

    // The app's own page (its modules start it, preloaded; the member's boot too), the root rendered in it,
    // with Mantine's scheme said (its script that sets it runs only once the app has hydrated).
    expect(html).toContain("data-start>");
    expect(html).toContain('<html data-mantine-color-scheme="light" lang="en">');
    expect(html).toContain('<script id="ssr-state" type="application/json" data-view="member">');
    expect(html).toContain('id="page-data"');
    const root = html.slice(html.indexOf('<div id="root">'));
    expect(root).not.toContain('aria-label="Loading"');
    // The member's screen: the sidebar (its state left to the screen's width), the editor's controls.
    expect(root).toContain('aria-label="Dashboard sidebar"');
    expect(root).toMatch(/class="dash-sidebar" data-open="auto"/);
    expect(root).toContain(">Agency overview</h1>");
    const dashboard = await owner.api("GET", `/api/dashboards/${permalink}?timezone=Europe%2FBerlin`);
    const widgets = dashboard.json().data.widgets as Array<{ id: string; title: string; format: string }>;
    for (const widget of widgets) expect(root).toContain(`data-widget-id="${widget.id}"`);
    // Tables and figures are drawn; charts carry their input (the page draws them before the app hydrates).
    const charts = widgets.filter((widget) => widget.format.startsWith("chart:"));
    expect(charts.length).toBe(2);
    for (const widget of widgets) {
      const card = cardOf(html, widget.id);
      if (widget.format.startsWith("chart:")) expect(card).toMatch(/data-chart-input="[^"]*rows/);
      else expect(card).toContain('data-state="ready"');
    }
  });

  it("a Chromium's first visit is asked for its viewport's width; with it the charts its page will ask for are drawn ahead", async () => {
    const { client: owner, company, user } = await buildOwner(env());
    const { permalink } = await buildDashboard(env(), { company, user, name: "Ahead", template: "website-overview" });
    const cookie = `${SESSION_COOKIE}=${owner.cookie(SESSION_COOKIE)}`;
    const chromium = { accept: "text/html", cookie, "sec-ch-ua": '"Chromium";v="156"' };

    // Not said yet: the answer asks for it (the browser sends the request again at once) and is not rendered.
    const first = await app.inject({ url: `/dashboards/${permalink}`, headers: chromium });
    expect(first.statusCode).toBe(200);
    expect(first.headers["critical-ch"]).toBe("Sec-CH-Viewport-Width");
    expect(first.headers["accept-ch"]).toBe("Sec-CH-Viewport-Width");
    expect(String(first.headers.vary)).toContain("Sec-CH-Viewport-Width");
    expect(jsonScript(first.body, "ssr-state")).toBeNull();
    // Nobody signed in is asked for it (a client viewing a shared link, the login page).
    const login = await app.inject({
      url: "/login",
      headers: { accept: "text/html", "sec-ch-ua": '"Chromium";v="156"' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.headers["accept-ch"]).toBeUndefined();
    // Another browser (no client hints) gets the rendered page as before; so does one out of range.
    for (const headers of [
      { accept: "text/html", cookie },
      { ...chromium, "sec-ch-viewport-width": "99999" },
    ]) {
      const other = await app.inject({ url: `/dashboards/${permalink}`, headers });
      expect(other.headers["critical-ch"]).toBeUndefined();
      expect(jsonScript(other.body, "ssr-state")).toMatchObject({ view: "member" });
    }

    // Said: the member's page, rendered; the drawings its charts will ask for are made meanwhile.
    const page = await app.inject({
      url: `/dashboards/${permalink}`,
      headers: { ...chromium, "sec-ch-viewport-width": "1280" },
    });
    expect(page.headers["critical-ch"]).toBeUndefined();
    expect(jsonScript(page.body, "ssr-state")).toMatchObject({ view: "member" });
    // What the page asks for (ssr/chart-placeholders.ts): each chart's input measured at its body's size, at its
    // box's size. At 1280 px (apps/web card-size.test.ts) a 4 × 2 card's body is 934 × 334, its chart 902 × 314;
    // a 2 × 2 card's body 458 × 334, its chart 426 × 314 (neither compact nor short).
    const measures: Record<string, { width: number; height: number }> = {
      "4x2": { width: 902, height: 314 },
      "2x2": { width: 426, height: 314 },
    };
    const charts = [
      ...page.body.matchAll(
        /<div class="dash-cell" data-w="(\d)" data-h="(\d)" data-format="chart:[^"]*"[\s\S]*?data-chart-input="([^"]*)"/g,
      ),
    ];
    expect(charts.map(([, w, h]) => `${w}x${h}`)).toEqual(["4x2", "2x2"]);
    const items = charts.map(([, w, h, attribute]) => ({
      input: { ...JSON.parse(unescapeHtml(attribute)), compact: false, short: false, size: undefined },
      size: measures[`${w}x${h}`],
    }));
    const session = new TestClient(app);
    session.setCookie(SESSION_COOKIE, owner.cookie(SESSION_COOKIE) ?? "");
    const asked = async () => {
      const response = await session.api("POST", "/api/chart-snapshots", { items });
      expect(response.json().data.map((item: { svg?: string }) => item.svg?.slice(0, 30))).toEqual([
        '<svg width="902" height="314" ',
        '<svg width="426" height="314" ',
      ]);
      return String(response.headers["server-timing"]);
    };
    // Asked as soon as the page has come: found drawn, or being drawn, not drawn again.
    expect(await asked()).toBe('charts;desc="2 of 2 drawn ahead"');
    // The same input with its keys in another order is the same drawing.
    const reordered = items.map(({ input, size }) => ({
      input: Object.fromEntries(Object.entries(input).reverse()),
      size,
    }));
    const again = await session.api("POST", "/api/chart-snapshots", { items: reordered });
    expect(again.headers["server-timing"]).toBe('charts;desc="2 of 2 drawn ahead"');
    // Another size is drawn for the asking.
    const other = await session.api("POST", "/api/chart-snapshots", {
      items: [{ ...items[0], size: { width: 300, height: 118 } }],
    });
    expect(other.headers["server-timing"]).toBe('charts;desc="0 of 1 drawn ahead"');
  });

  it("with the viewport's width, the page carries its charts' drawings after its body, the app's modules after them, and allows only the script that puts them in place", async () => {
    const { client: owner, company, user } = await buildOwner(env());
    const { permalink } = await buildDashboard(env(), { company, user, name: "Drawn", template: "website-overview" });
    const headers = {
      accept: "text/html",
      cookie: `${SESSION_COOKIE}=${owner.cookie(SESSION_COOKIE)}`,
      "sec-ch-ua": '"Chromium";v="156"',
      "sec-ch-viewport-width": "1280",
    };
    const page = await app.inject({ url: `/dashboards/${permalink}`, headers });
    const html = page.body;
    const dashboard = await owner.api("GET", `/api/dashboards/${permalink}?timezone=UTC`);
    const widgets = dashboard.json().data.widgets as Array<{ id: string; format: string; width: number }>;
    const charts = widgets.filter((widget) => widget.format.startsWith("chart:"));

    // Each chart's drawing, named by its card, at the sizes a 1280 px window lays the card out at (the test
    // above): the chart's box, and the card's body the page compares too.
    const data = [...html.matchAll(/<script type="application\/json">(\[[^<]*\])<\/script><script>([^<]*)<\/script>/g)];
    expect(data.length).toBeGreaterThan(0);
    const drawn = data.flatMap(([, json]) => JSON.parse(json) as Array<Record<string, string>>);
    expect(drawn.map((item) => item.widget).sort()).toEqual(charts.map((chart) => String(chart.id)).sort());
    for (const item of drawn) {
      const wide = charts.find((chart) => String(chart.id) === item.widget)?.width === 4;
      expect(item.size).toBe(wide ? "902x314" : "426x314");
      expect(item.body).toBe(wide ? "934x334" : "458x334");
      expect(item.svg.startsWith(`<svg width="${item.size.split("x")[0]}" height="314" `)).toBe(true);
    }

    // In this order: the head with its styles but none of the app's modules, the rendered root and its state,
    // the drawings, then the modules (the entry and every preload), so the cards are drawn before the app's
    // files are asked for.
    const head = html.slice(0, html.indexOf('<div id="root">'));
    expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/index-1.css">');
    expect(head).not.toMatch(/<script type="module"|rel="modulepreload"/);
    const at = (text: string) => html.indexOf(text);
    expect(at('<script id="ssr-state"')).toBeLessThan(at('<script type="application/json">['));
    expect(html.lastIndexOf('<script type="application/json">[')).toBeLessThan(
      at('<script type="module" crossorigin src="/assets/index-1.js">'),
    );
    expect(at('<script type="module" crossorigin src="/assets/index-1.js">')).toBeLessThan(at("data-start>"));
    expect(at("data-start>")).toBeLessThan(at("</body>"));

    // A browser that has not said its width (Firefox, Safari) gets no drawings: its page's own code draws the
    // charts, so its modules stay in the head and load while the server renders.
    const unsaid = await app.inject({
      url: `/dashboards/${permalink}`,
      headers: { accept: "text/html", cookie: headers.cookie },
    });
    expect(unsaid.body).not.toContain('<script type="application/json">[');
    const unsaidHead = unsaid.body.slice(0, unsaid.body.indexOf('<div id="root">'));
    expect(unsaidHead).toContain('<script type="module" crossorigin src="/assets/index-1.js">');
    expect(unsaidHead).toContain("data-start>");

    // The page's policy allows that one script by its hash, and still no other inline script.
    const scripts = new Set(data.map(([, , script]) => script));
    expect(scripts.size).toBe(1);
    const hash = createHash("sha256")
      .update([...scripts][0])
      .digest("base64");
    const scriptSrc = /script-src ([^;]*)/.exec(String(page.headers["content-security-policy"]))?.[1];
    expect(scriptSrc).toBe(`'self' 'sha256-${hash}'`);
    // Other pages keep the policy without it.
    const other = await app.inject({ url: "/login", headers: { accept: "text/html" } });
    expect(/script-src ([^;]*)/.exec(String(other.headers["content-security-policy"]))?.[1]).toBe("'self'");
  });

  it("a member opening another company's dashboard, or one that is not there, gets the app's page", async () => {
    const { company, user } = await buildOwner(env());
    const { permalink } = await buildDashboard(env(), { company, user, name: "Theirs" });
    const { client: stranger } = await buildOwner(env());
    const session = `${SESSION_COOKIE}=${stranger.cookie(SESSION_COOKIE)}`;
    for (const address of [`/dashboards/${permalink}`, "/dashboards/no-such-permalink"]) {
      const html = await get(app, address, session);
      expect(html).not.toContain('id="ssr-state"');
      // The app's loader in the root, and the app's start: the page is complete HTML.
      expect(html).toContain('<div id="root"><svg aria-label="Loading"');
      expect(html).toContain("</html>");
      // Nothing of the editor's screen (another company's public dashboard shows its header only).
      expect(html).not.toContain("dash-sidebar");
    }
  });

  it("keeps user HTML to the allow-list on the server too", async () => {
    const { company, user } = await buildOwner(env());
    const { permalink } = await buildDashboard(env(), {
      company,
      user,
      save: { footer: '<p><b>Acme</b> reports</p><form action="https://evil.test"><input name="password"></form>' },
    });
    const html = await get(app, `/dashboards/${permalink}`);
    expect(jsonScript(html, "ssr-state")).toMatchObject({ complete: true });
    expect(html).toContain("<b>Acme</b> reports");
    expect(html).not.toMatch(/<form|<input/);
  });

  it("protected, archived and embedded views, and a server with rendering off, get the app", async () => {
    const { client: owner, company, user } = await buildOwner(env());
    const { permalink, id } = await buildDashboard(env(), { company, user, name: "Plans" });
    expect(await get(app, `/dashboards/${permalink}`)).toContain('id="ssr-state"');
    // The owner's own page is rendered as the app renders it (the member's view, below), never the public one.
    const session = `${SESSION_COOKIE}=${owner.cookie(SESSION_COOKIE)}`;
    expect(jsonScript(await get(app, `/dashboards/${permalink}`, session), "ssr-state")).toMatchObject({
      view: "member",
    });
    expect(await get(offApp, `/dashboards/${permalink}`, session)).not.toContain('id="ssr-state"');
    expect(await get(offApp, `/dashboards/${permalink}`)).not.toContain('id="ssr-state"');
    expect(await get(app, `/dashboards/${permalink}/embed?token=x`)).not.toContain('id="ssr-state"');
    expect(await get(app, `/dashboards/${permalink}/print`)).not.toContain('id="ssr-state"');

    await owner.api("PUT", `/api/dashboards/${id}`, { category: "new_password", password: "client-secret" });
    const protectedPage = await get(app, `/dashboards/${permalink}`);
    expect(protectedPage).not.toContain('id="ssr-state"');
    expect(protectedPage).not.toContain("Plans");

    const other = await buildDashboard(env(), { company, user, name: "Gone" });
    await owner.api("DELETE", `/api/dashboards/${other.id}/archive`);
    expect(await get(app, `/dashboards/${other.permalink}`)).not.toContain('id="ssr-state"');
    expect(await get(app, "/dashboards/no-such-permalink")).not.toContain('id="ssr-state"');
  });

  it("draws a widget whose data fails on the server loading, leaves it to the browser, and the others with data", async () => {
    const { company, user } = await buildOwner(env());
    const csv = await buildSource(env(), {
      company,
      connector: "csv",
      file: { filename: "channels.csv", mimetype: "text/csv", data: Buffer.from("Channel,Visits\nOrganic,500\n") },
    });
    // The website template's widgets, one table moved onto the CSV file.
    const template = await buildDashboard(env(), { company, user, template: "website-overview" });
    const widgets = JSON.parse(template.widgets) as TWidget[];
    const broken = widgets.find((widget) => widget.format === "table") as TInteractiveWidget;
    broken.instances = [
      {
        ...broken.instances[0],
        type: "csv.sheet",
        config: "csv.sheet",
        sourceId: csv.id,
        inputs: {
          property: csv.properties[0].value,
          sheet: "sheet1",
          has_header: true,
          has_footer: false,
          has_labels: true,
          uses_date_range: false,
          dimension: "channel",
          metrics: ["visits"],
        },
        metricsOptions: {},
      },
    ];
    const { permalink } = await buildDashboard(env(), { company, user, widgets });
    // The file is gone: the widget's data route answers 502 (widgets/csv-data.test.ts).
    await env().ctx.db.deleteFrom("files").where("company_id", "=", company.id).execute();

    const html = await get(app, `/dashboards/${permalink}`);
    const state = jsonScript(html, "ssr-state") as SsrState;
    // Not complete: the app starts at once to fetch what the server could not.
    expect(state.complete).toBe(false);

    // Drawn loading, as the browser's first render draws a card it has no answer for: an error drawn on one
    // side only would make React render the whole page anew.
    const card = cardOf(html, broken.id);
    expect(card).toContain('data-state="loading"');
    expect(card).toContain('aria-busy="true"');
    expect(card).toContain("mantine-Skeleton-root");
    expect(card).not.toContain("Data Error");
    expect(card).not.toContain('role="alert"');

    // Its query is not in the state (the browser asks again); every other widget's answer is.
    const answered = state.queries.queries
      .filter((query) => query.queryKey[0] === "widget-data")
      .map((query) => JSON.stringify(query.queryKey[1]));
    expect(answered.some((key) => key.includes(csv.id))).toBe(false);
    const others = widgets.filter(
      (widget): widget is TInteractiveWidget => widget.nature === "interactive" && widget.id !== broken.id,
    );
    expect(others.length).toBe(4);
    for (const widget of others) {
      expect(answered.some((key) => key.includes(`"id":"${widget.instances[0].id}"`))).toBe(true);
      // The other cards are drawn from their answers: tables and figures ready, charts with their input.
      const other = cardOf(html, widget.id);
      if (widget.format.startsWith("chart:")) expect(other).toMatch(/data-chart-input="[^"]*rows/);
      else expect(other).toContain('data-state="ready"');
      expect(other).not.toContain("mantine-Skeleton-root");
    }
  });

  it(`renders at most ${MAX_CONCURRENT_RENDERS} views at once; the next viewers get the app's page without waiting`, async () => {
    const { company, user } = await buildOwner(env());
    const { permalink } = await buildDashboard(env(), { company, user, template: "website-overview" });
    const ctx = env().ctx;
    const gated = await buildApp(
      { ...ctx, config: { ...ctx.config, publicViewSsr: { enabled: true, budgetMs: 5000 } } },
      { webDist: path.join(buildDir, "dist") },
    );
    // A slow answer: the dashboard's API call, each render's first, is held until released, so the
    // renders in flight are the calls held.
    const held: Array<() => void> = [];
    let holding = true;
    gated.addHook("onRequest", async (request) => {
      if (!holding || request.method !== "GET" || !request.url.startsWith(`/api/dashboards/${permalink}`)) return;
      await new Promise<void>((resolve) => held.push(resolve));
    });
    await gated.ready();
    try {
      const viewers = MAX_CONCURRENT_RENDERS + 2;
      const answered: string[] = [];
      const pages = Array.from({ length: viewers }, async () => {
        const html = await get(gated, `/dashboards/${permalink}`);
        answered.push(html);
        return html;
      });
      // Every viewer is either rendering (held) or answered.
      await until(() => held.length + answered.length === viewers, 10_000, 20);
      expect(held.length).toBe(MAX_CONCURRENT_RENDERS);
      // The others got the app's page while the renders were still waiting.
      expect(answered.length).toBe(viewers - MAX_CONCURRENT_RENDERS);
      for (const html of answered) {
        expect(html).not.toContain('id="ssr-state"');
        expect(html).toContain('id="page-data"');
        expect(html).toContain("data-start");
      }

      holding = false;
      for (const release of held) release();
      const all = await Promise.all(pages);
      expect(all.filter((html) => html.includes('id="ssr-state"')).length).toBe(MAX_CONCURRENT_RENDERS);
      // Their places are free again.
      expect(await get(gated, `/dashboards/${permalink}`)).toContain('id="ssr-state"');
    } finally {
      holding = false;
      for (const release of held) release();
      await gated.close();
    }
  });
});

/** A chart's input as the browser's snapshot worker gets it (apps/web/src/features/widgets/charts/chart-common.ts). */
function chartInput(format: string, rows: Array<[string, number]>) {
  return {
    widget: { format, title: "Traffic", instances: [], percent: false, formatOptions: {} },
    current: {
      dimension:
        format === "chart:pie"
          ? { key: "device", label: "Device", kind: "string" }
          : { key: "date", label: "Date", kind: "date" },
      metrics: [{ key: "ga4.sessions", label: "Sessions", format: "number" }],
      rows: rows.map(([dimension, value]) => ({ dimension, values: [value] })),
      totals: [rows.reduce((sum, [, value]) => sum + value, 0)],
    },
    previous: null,
    colours: { palette: ["#5b5bd6", "#12a594"], text: "#1c2024", muted: "#60646c", line: "#e0e1e6", surface: "#fff" },
    compact: false,
    comparison: "Previous period",
  };
}

/** The texts an SVG shows, in document order. */
const svgTexts = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((match) => match[1]);

describeEachDb("a member's charts drawn by the server (POST /api/chart-snapshots)", (env) => {
  let app: App;
  let offApp: App;
  let unbuiltApp: App;

  beforeAll(async () => {
    const ctx = env().ctx;
    // Public views rendered or not, the bundle draws a member's charts; without a build there is none.
    app = await buildApp(ctx, { webDist: path.join(buildDir, "dist") });
    offApp = await buildApp(
      { ...ctx, config: { ...ctx.config, publicViewSsr: { enabled: false, budgetMs: 0 } } },
      { webDist: path.join(buildDir, "dist") },
    );
    unbuiltApp = await buildApp(ctx, { webDist: path.join(buildDir, "no-such-dist") });
    await Promise.all([app.ready(), offApp.ready(), unbuiltApp.ready()]);
  });
  afterAll(async () => {
    await Promise.all([app.close(), offApp.close(), unbuiltApp.close()]);
  });

  /** The owner's page on `target` (its session, its identification). */
  async function ownerOn(target: App) {
    const { client: owner } = await buildOwner(env());
    const page = new TestClient(target);
    page.setCookie(SESSION_COOKIE, owner.cookie(SESSION_COOKIE) ?? "");
    return page;
  }

  const days = Array.from({ length: 7 }, (_, i): [string, number] => [`2026-11-0${i + 1}`, 4000 + i * 250]);
  const devices: Array<[string, number]> = [
    ["desktop", 500],
    ["mobile", 300],
    ["tablet", 50],
  ];

  it("answers each chart's SVG in the order asked, and an input it cannot draw with that item's error", async () => {
    for (const target of [app, offApp]) {
      const page = await ownerOn(target);
      const response = await page.api("POST", "/api/chart-snapshots", {
        items: [
          { input: chartInput("chart:line", days), size: { width: 600, height: 300 } },
          { input: { ...chartInput("chart:line", days), current: null }, size: { width: 600, height: 300 } },
          { input: chartInput("chart:pie", devices), size: { width: 400, height: 280 } },
        ],
      });
      expect(response.statusCode).toBe(200);
      const [line, refused, pie] = response.json().data;
      expect(line.svg).toMatch(/^<svg width="600" height="300"/);
      expect(svgTexts(line.svg)).toEqual(expect.arrayContaining(["Nov 01", "Nov 07", "5K"]));
      expect(line.svg).toContain('stroke="#5b5bd6"');
      expect(refused).toEqual({ error: expect.any(String) });
      expect(pie.svg).toMatch(/^<svg width="400" height="280"/);
      expect(svgTexts(pie.svg)).toEqual(expect.arrayContaining(["desktop", "mobile", "tablet"]));
    }
  });

  it("is for members only, refuses a request it would not draw (422 per field), and says 503 without a build", async () => {
    const item = { input: chartInput("chart:line", days), size: { width: 600, height: 300 } };
    const stranger = new TestClient(app);
    expect((await stranger.api("POST", "/api/chart-snapshots", { items: [item] })).statusCode).toBe(401);

    const page = await ownerOn(app);
    const tooMany = await page.api("POST", "/api/chart-snapshots", {
      items: Array.from({ length: CHART_SNAPSHOTS_MAX_ITEMS + 1 }, () => item),
    });
    expect(tooMany.statusCode).toBe(422);
    expect(Object.keys(tooMany.json().errors)).toEqual(["items"]);
    const huge = await page.api("POST", "/api/chart-snapshots", {
      items: [{ ...item, size: { width: 100_000, height: 300 } }],
    });
    expect(huge.statusCode).toBe(422);
    expect(Object.keys(huge.json().errors)).toEqual(["items.0.size.width"]);
    expect((await page.api("POST", "/api/chart-snapshots", { items: [] })).statusCode).toBe(422);

    const unbuilt = await ownerOn(unbuiltApp);
    const unavailable = await unbuilt.api("POST", "/api/chart-snapshots", { items: [item] });
    expect(unavailable.statusCode).toBe(503);
    expect(unavailable.json()).toMatchObject({ code: "unavailable" });
  });
});

describe("the server's first render made ahead (docs/decisions.md, 'The server's first render is a made-up one')", () => {
  it("the bundle's warm-up renders its made-up member's dashboard whole: every card, tables and figures drawn, each chart noted", async () => {
    const app = Fastify({ logger: false }) as unknown as App;
    const bundle = await serverBundle(app, path.join(buildDir, "dist"), false)();
    expect(await bundle?.warmUp()).toEqual({ cards: 8, ready: 2, charts: 6, complete: true });
    await app.close();
  });

  /** A web build whose server bundle is a stand-in: its warm-up counts its calls and never ends. */
  function standIn() {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "warm-up-"));
    fs.mkdirSync(path.join(folder, "dist"));
    fs.mkdirSync(path.join(folder, "dist-ssr"));
    fs.writeFileSync(
      path.join(folder, "dist-ssr", "server-entry.cjs"),
      `exports.setUserHtmlSanitizer = () => {};
exports.warmUp = () => { globalThis.__warmUps = (globalThis.__warmUps ?? 0) + 1; return new Promise(() => {}); };`,
    );
    return { folder, webDist: path.join(folder, "dist") };
  }
  const warmUps = () => (globalThis as { __warmUps?: number }).__warmUps ?? 0;

  it("runs once the server listens, in the background: the server listens and answers without waiting for it", async () => {
    const { folder, webDist } = standIn();
    const before = warmUps();
    const app = Fastify({ logger: false }) as unknown as App;
    app.get("/api/health", async () => ({ ok: true }));
    serverBundle(app, webDist, true);
    await app.ready();
    // Answering in process only (the tests' inject), a server renders nothing ahead.
    expect((await app.inject({ url: "/api/health" })).statusCode).toBe(200);
    expect(warmUps()).toBe(before);
    // Listening, it warms up once, and answers while that render (here never ending) goes on.
    const address = await app.listen({ port: 0, host: "127.0.0.1" });
    await until(() => warmUps() === before + 1);
    expect((await fetch(`${address}/api/health`)).status).toBe(200);
    await app.close();
    expect(warmUps()).toBe(before + 1);
    fs.rmSync(folder, { recursive: true, force: true });
  });
});
