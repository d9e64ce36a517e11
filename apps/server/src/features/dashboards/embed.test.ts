import { buildInstance, buildWidget } from "@app/core/widgets/test-fixtures";
import { expect, it } from "vitest";
import { buildDashboard, buildOwner } from "../../../test/factories";
import { describeEachDb, type TestEnv } from "../../../test/harness";
import { dashboardsRepo } from "./repo";
import { EMBED_REFUSED, signEmbedToken } from "./service";

const chart = buildWidget({ id: "w1", order: 0, hash: "w1", instances: [buildInstance({ sourceId: null })] });

async function setUp(env: TestEnv, password?: string) {
  const owner = await buildOwner(env);
  const row = await buildDashboard(env, {
    company: owner.company,
    user: owner.user,
    name: "Client board",
    // Demo widgets: their data answers offline, so the data route's answer proves access.
    template: "website-overview",
    ...(password !== undefined && { password }),
  });
  return { owner, row };
}

async function mint(owner: Awaited<ReturnType<typeof buildOwner>>, id: string, days = 7) {
  const response = await owner.client.api("POST", `/api/dashboards/${id}/embed`, { days });
  expect(response.statusCode).toBe(200);
  const { url, expiresAt } = response.json().data as { url: string; expiresAt: string };
  const parsed = new URL(url);
  return { url, expiresAt, path: parsed.pathname, token: parsed.searchParams.get("token") ?? "" };
}

/** What the embedded page's app asks, as an anonymous visitor on another site (no cookie). */
function viewAs(env: TestEnv, permalink: string, token: string) {
  return env.client().api("GET", `/api/dashboards/${permalink}`, undefined, { "x-embed-token": token });
}
function dataAs(env: TestEnv, row: { permalink: string; widgets: string }, token: string) {
  const widget = (JSON.parse(row.widgets) as Array<{ id: string; nature: string }>).find(
    (w) => w.nature === "interactive",
  );
  return env
    .client()
    .api(
      "POST",
      `/api/dashboards/${row.permalink}/widgets/${widget?.id}/data`,
      { startDate: "2026-01-01", endDate: "2026-01-31" },
      { "x-embed-token": token },
    );
}

describeEachDb("signed, revocable embed links", (env) => {
  it("a minted link opens the dashboard read-only for an anonymous visitor until its expiry", async () => {
    const { owner, row } = await setUp(env());
    const before = Date.now();
    const link = await mint(owner, row.id, 30);
    expect(link.path).toBe(`/dashboards/${row.permalink}/embed`);
    expect(link.url.startsWith(env().ctx.config.appUrl)).toBe(true);
    const expires = Date.parse(link.expiresAt);
    expect(expires - before).toBeGreaterThan(30 * 86_400_000 - 60_000);
    expect(expires - before).toBeLessThanOrEqual(30 * 86_400_000 + 60_000);

    const shown = await viewAs(env(), row.permalink, link.token);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers["x-public"]).toBe("1");
    expect(shown.json().data.name).toBe("Client board");
    const data = await dataAs(env(), row, link.token);
    expect(data.statusCode, data.body).toBe(200);
  });

  it("refuses forged, expired, other-dashboard and empty tokens with 403 and the expired message", async () => {
    const { owner, row } = await setUp(env());
    const other = await buildDashboard(env(), { company: owner.company, name: "Other", widgets: [chart] });
    const link = await mint(owner, row.id);
    const otherLink = await mint(owner, other.id);
    const secret = (await dashboardsRepo(env().ctx.db).findById(owner.company.id, row.id))?.embed_secret ?? "";
    const past = Math.floor(Date.now() / 1000) - 60;
    const [exp, mac] = link.token.split(".");
    const bad = {
      // A correct signature whose expiry has passed.
      expired: signEmbedToken(env().ctx.config.appKey, row, secret, past),
      // A later expiry pasted onto a real signature.
      stretched: `${Number(exp) + 86_400}.${mac}`,
      // Signed with the right secret but another application key.
      forgedKey: signEmbedToken("another-app-key-0123456789", row, secret, Number(exp)),
      otherDashboard: otherLink.token,
      garbage: "hello",
      empty: "",
    };
    for (const [name, token] of Object.entries(bad)) {
      const shown = await viewAs(env(), row.permalink, token);
      expect(shown.statusCode, name).toBe(403);
      expect(shown.json().message, name).toBe(EMBED_REFUSED);
      expect((await dataAs(env(), row, token)).statusCode, name).toBe(403);
    }
  });

  it("revoking (new embed secret) and refreshing the permalink each kill every earlier link", async () => {
    const { owner, row } = await setUp(env());
    const first = await mint(owner, row.id);
    const second = await mint(owner, row.id);
    expect((await viewAs(env(), row.permalink, first.token)).statusCode).toBe(200);
    expect((await viewAs(env(), row.permalink, second.token)).statusCode).toBe(200);

    expect((await owner.client.api("DELETE", `/api/dashboards/${row.id}/embed`)).statusCode).toBe(204);
    for (const link of [first, second]) expect((await viewAs(env(), row.permalink, link.token)).statusCode).toBe(403);
    const fresh = await mint(owner, row.id);
    expect((await viewAs(env(), row.permalink, fresh.token)).statusCode).toBe(200);

    const refreshed = await owner.client.api("PUT", `/api/dashboards/${row.id}`, { category: "refresh_permalink" });
    const permalink = refreshed.json().data.permalink as string;
    expect(permalink).not.toBe(row.permalink);
    // The old address is gone, and the old token does not carry over to the new one.
    expect((await viewAs(env(), row.permalink, fresh.token)).statusCode).toBe(403);
    expect((await viewAs(env(), permalink, fresh.token)).statusCode).toBe(403);
    const renewed = await mint(owner, row.id);
    expect(renewed.path).toBe(`/dashboards/${permalink}/embed`);
    expect((await viewAs(env(), permalink, renewed.token)).statusCode).toBe(200);
  });

  it("the signed link stands for the password of a protected dashboard; the plain public view still asks", async () => {
    const { owner, row } = await setUp(env(), "s3cret-pass");
    const link = await mint(owner, row.id);
    expect((await viewAs(env(), row.permalink, link.token)).statusCode).toBe(200);
    expect((await env().client().api("GET", `/api/dashboards/${row.permalink}`)).statusCode).toBe(422);
  });

  it("an archived dashboard's links stop working", async () => {
    const { owner, row } = await setUp(env());
    const link = await mint(owner, row.id);
    await owner.client.api("DELETE", `/api/dashboards/${row.id}/archive`);
    expect((await viewAs(env(), row.permalink, link.token)).statusCode).toBe(403);
  });

  it("another company can neither mint nor revoke links; guests are refused; lifetimes are checked", async () => {
    const { owner, row } = await setUp(env());
    const stranger = await buildOwner(env());
    expect((await stranger.client.api("POST", `/api/dashboards/${row.id}/embed`, { days: 7 })).statusCode).toBe(404);
    expect((await stranger.client.api("DELETE", `/api/dashboards/${row.id}/embed`)).statusCode).toBe(404);
    const guest = await env().client().api("POST", `/api/dashboards/${row.id}/embed`, { days: 7 });
    expect(guest.statusCode).toBe(401);
    for (const days of [0, 366, 1.5, "7"]) {
      const response = await owner.client.api("POST", `/api/dashboards/${row.id}/embed`, { days });
      expect(response.statusCode, String(days)).toBe(422);
      expect(response.json().errors.days, String(days)).toBeDefined();
    }
  });

  it("only the embed page may be framed by other sites", async () => {
    const { owner, row } = await setUp(env());
    const link = await mint(owner, row.id);
    const embed = await env().client().raw("GET", `${link.path}?token=${link.token}`);
    expect(embed.statusCode).toBe(200);
    expect(embed.headers["content-type"]).toContain("text/html");
    expect(String(embed.headers["content-security-policy"])).toContain("frame-ancestors *");
    expect(embed.headers["x-frame-options"]).toBeUndefined();
    // A bad token still gets the page (it shows the expired state), with the same framing rule.
    const bad = await env().client().raw("GET", `${link.path}?token=nope`);
    expect(String(bad.headers["content-security-policy"])).toContain("frame-ancestors *");
    for (const path of [`/dashboards/${row.permalink}`, `/dashboards/${row.permalink}/print`, "/dashboards", "/x"]) {
      const page = await env().client().raw("GET", path);
      expect(String(page.headers["content-security-policy"]), path).toContain("frame-ancestors 'none'");
      expect(page.headers["x-frame-options"], path).toBe("DENY");
    }
    const api = await env().client().api("GET", `/api/dashboards/${row.permalink}`, undefined, {
      "x-embed-token": link.token,
    });
    expect(String(api.headers["content-security-policy"])).toContain("frame-ancestors 'none'");
  });
});

describeEachDb(
  "embed links framed only by the configured sites",
  (env) => {
    it("the embed page names EMBED_FRAME_ANCESTORS; other pages still refuse every frame", async () => {
      const owner = await buildOwner(env());
      const row = await buildDashboard(env(), { company: owner.company, name: "Listed" });
      const link = await mint(owner, row.id);
      const embed = await env().client().raw("GET", `${link.path}?token=${link.token}`);
      expect(String(embed.headers["content-security-policy"])).toContain(
        "frame-ancestors https://client.example https://*.agency.example",
      );
      expect(embed.headers["x-frame-options"]).toBeUndefined();
      const page = await env().client().raw("GET", `/dashboards/${row.permalink}`);
      expect(String(page.headers["content-security-policy"])).toContain("frame-ancestors 'none'");
    });
  },
  { EMBED_FRAME_ANCESTORS: "https://client.example,https://*.agency.example" },
);
