import { EMPTY_DASHBOARD_STYLES } from "@app/core";
import { expect, it } from "vitest";
import { buildDashboard, buildOwner } from "../../../test/factories";
import { describeEachDb, type TestClient, type TestEnv } from "../../../test/harness";
import { bootHeaderHtml } from "./routes";

const BOOT = /<div id="boot-view"[^>]*>.*?<h1 class="dash-title">([^<]*)<\/h1>/s;

async function page(client: TestClient, url: string): Promise<string> {
  const response = await client.raw("GET", url, { headers: { accept: "text/html" } });
  expect(response.statusCode).toBe(200);
  return response.body;
}

async function agencyDashboard(env: TestEnv, name: string) {
  const { client, company, user } = await buildOwner(env);
  const { permalink, id } = await buildDashboard(env, { company, user, name });
  return { client, permalink, id };
}

describeEachDb(
  "a public dashboard's header painted in the served HTML (docs/decisions.md, “Public dashboard on a phone: the header painted by the server”)",
  (env) => {
    it("a public viewer's HTML carries the escaped name before the app's root; the owner's does not", async () => {
      const name = "Q$& </h1><script>x</script> & co";
      const { client: agency, permalink } = await agencyDashboard(env(), name);
      const html = await page(env().client(), `/dashboards/${permalink}?range=last_7_days`);
      expect(BOOT.exec(html)?.[1]).toBe("Q$&#38; &#60;/h1&#62;&#60;script&#62;x&#60;/script&#62; &#38; co");
      expect(html).not.toContain("<script>x");
      // Before the root (React's first render would wipe anything inside it), hidden from assistive technology.
      expect(html.indexOf('<div id="boot-view" aria-hidden="true"')).toBeGreaterThan(-1);
      expect(html.indexOf('<div id="boot-view"')).toBeLessThan(html.indexOf('<div id="root">'));
      // Out of the flow: the root's content does not move when it goes (Lighthouse saw a 0.7 layout shift).
      expect(html).toContain('<div id="boot-view" aria-hidden="true" style="position:absolute;top:0;left:0;right:0;');
      // The light theme's variables, as the app sets them.
      expect(html).toContain('class="dash-root" data-theme="light" style="--dash-canvas:#f4f5f9;');
      // Members of the owning company get the editor (a sidebar moves the header): nothing painted.
      expect(await page(agency, `/dashboards/${permalink}`)).not.toContain("boot-view");
      // Only the dashboard screen: print and real-time views draw their own pages.
      expect(await page(env().client(), `/dashboards/${permalink}/print`)).not.toContain("boot-view");
    });

    it("a protected, archived or unknown dashboard paints nothing", async () => {
      const { client: agency, permalink, id } = await agencyDashboard(env(), "Secret plans");
      await agency.api("PUT", `/api/dashboards/${id}`, { category: "new_password", password: "client-secret" });
      const guest = env().client();
      const html = await page(guest, `/dashboards/${permalink}`);
      expect(html).not.toContain("boot-view");
      expect(html).not.toContain("Secret plans");

      const { client: owner, ...other } = await agencyDashboard(env(), "Archived one");
      expect(await page(guest, `/dashboards/${other.permalink}`)).toContain("boot-view");
      await owner.api("DELETE", `/api/dashboards/${other.id}/archive`);
      expect(await page(guest, `/dashboards/${other.permalink}`)).not.toContain("boot-view");
      expect(await page(guest, "/dashboards/no-such-permalink")).not.toContain("boot-view");
    });
  },
);

it("bootHeaderHtml: the dashboard's colours and logo, and nothing when the range is written under the name", () => {
  const dark = bootHeaderHtml({
    name: "Dark",
    styles: { ...EMPTY_DASHBOARD_STYLES, theme: "dark", color: "#ff0000", logoImage: '/files/c/logo.png"onload="x' },
    hiddenDateSelector: false,
  });
  expect(dark).toContain('data-theme="dark" style="--dash-canvas:#0e1120;--dash-card:#171b2d;--dash-text:#ff0000;');
  expect(dark).toContain('<img class="dash-logo" src="/files/c/logo.png&#34;onload=&#34;x" alt="">');
  // A colour that is not one is ignored (docs/product.md §5), as the app does.
  const invalid = bootHeaderHtml({
    name: "x",
    styles: { ...EMPTY_DASHBOARD_STYLES, color: "red;background:url(x)" },
    hiddenDateSelector: false,
  });
  expect(invalid).toContain("--dash-text:#1f2433;");
  expect(bootHeaderHtml({ name: "Hidden", styles: EMPTY_DASHBOARD_STYLES, hiddenDateSelector: true })).toBe("");
});
