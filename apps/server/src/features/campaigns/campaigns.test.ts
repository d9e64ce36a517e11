import { CAMPAIGN_MESSAGES, DOMAIN_MESSAGES, type TCampaign, type TCampaignDomain } from "@app/core";
import { expect, it } from "vitest";
import { buildMember, buildOwner } from "../../../test/factories";
import type { TestEnv } from "../../../test/harness";
import { describeEachDb } from "../../../test/harness";
import { newId } from "../../infra/security";
import { addDomain, createGroup } from "./test-helpers";

const DAY_MS = 24 * 3600 * 1000;

/** A day's value and an alert for a domain, as the snapshot and alert jobs will write them. */
async function seedData(
  env: TestEnv,
  companyId: string,
  domainId: string,
  {
    state = "open",
    day = "2026-11-01",
    metric = "clicks",
  }: { state?: "open" | "resolved"; day?: string; metric?: "clicks" | "domainRating" } = {},
) {
  // No-data rules, as a value weeks old keeps them failing whenever the domain is judged again.
  const rule = metric === "clicks" ? "clicks-no-data" : "domain-rating-no-data";
  const now = new Date().toISOString();
  await env.ctx.db
    .insertInto("domain_metric_days")
    .values({
      company_id: companyId,
      campaign_domain_id: domainId,
      metric,
      day,
      value: 12.5,
      provider: "demo",
      fetched_at: now,
    })
    .execute();
  await env.ctx.db
    .insertInto("campaign_alerts")
    .values({
      id: newId(),
      company_id: companyId,
      campaign_domain_id: domainId,
      rule,
      dedupe_key: state === "open" ? `${domainId}:${rule}` : `${domainId}:${rule}:${newId()}`,
      state,
      opened_at: now,
      resolved_at: state === "resolved" ? now : null,
      reason: `No ${metric} data since ${day}.`,
      passing_count: 0,
    })
    .execute();
}

async function rowsOf(env: TestEnv, domainIds: string[]) {
  const count = async (table: "domain_metric_days" | "campaign_alerts" | "campaign_domains", column: string) =>
    domainIds.length === 0
      ? 0
      : (
          await env.ctx.db
            .selectFrom(table)
            .select(column as "company_id")
            .where(column as "company_id", "in", domainIds)
            .execute()
        ).length;
  return {
    domains: await count("campaign_domains", "id"),
    days: await count("domain_metric_days", "campaign_domain_id"),
    alerts: await count("campaign_alerts", "campaign_domain_id"),
  };
}

describeEachDb("Mission Control groups and domains API", (env) => {
  it("an admin creates, lists, shows, renames and deletes a group; campaignsCount follows", async () => {
    const owner = await buildOwner(env());
    const created = await createGroup(owner.client, "  Retainer clients ");
    expect(created).toMatchObject({ name: "Retainer clients", domain_count: 0, open_alert_count: 0, domains: [] });

    const second = await createGroup(owner.client, "Agency sites");
    const list = await owner.client.api("GET", "/api/campaigns");
    expect(list.statusCode).toBe(200);
    // By name; counts, no domains.
    expect(list.json().data.map((g: TCampaign) => [g.name, g.domain_count])).toEqual([
      ["Agency sites", 0],
      ["Retainer clients", 0],
    ]);
    expect(list.json().data[0]).not.toHaveProperty("domains");
    expect((await owner.client.api("GET", "/api/company")).json().data.campaignsCount).toBe(2);

    const shown = await owner.client.api("GET", `/api/campaigns/${created.id}`);
    expect(shown.json().data).toEqual(created);

    const renamed = await owner.client.api("PUT", `/api/campaigns/${created.id}`, { name: "Retainers" });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().data).toMatchObject({ id: created.id, name: "Retainers" });
    // Its own name again (even in other capitals) is not a clash with itself.
    expect((await owner.client.api("PUT", `/api/campaigns/${created.id}`, { name: "RETAINERS" })).statusCode).toBe(200);

    expect((await owner.client.api("DELETE", `/api/campaigns/${second.id}`)).statusCode).toBe(204);
    expect((await owner.client.api("GET", `/api/campaigns/${second.id}`)).statusCode).toBe(404);
    expect((await owner.client.api("DELETE", `/api/campaigns/${second.id}`)).statusCode).toBe(404);
    expect((await owner.client.api("GET", "/api/company")).json().data.campaignsCount).toBe(1);
  });

  it("a member reads groups and works with their domains, but may not create, rename or delete a group", async () => {
    const owner = await buildOwner(env());
    const member = await buildMember(env(), { company: owner.company });
    const group = await createGroup(owner.client, "Clients");

    for (const [method, url, body] of [
      ["POST", "/api/campaigns", { name: "Mine" }],
      ["PUT", `/api/campaigns/${group.id}`, { name: "Renamed" }],
      ["DELETE", `/api/campaigns/${group.id}`, undefined],
    ] as const) {
      const response = await member.client.api(method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json()).toMatchObject({
        code: "forbidden",
        message: "Only an admin can create, rename or delete groups.",
      });
    }
    expect((await member.client.api("GET", "/api/campaigns")).json().data).toHaveLength(1);
    expect((await member.client.api("GET", `/api/campaigns/${group.id}`)).json().data.name).toBe("Clients");

    const domain = await addDomain(member.client, group.id, "client.com");
    const snoozed = await member.client.api("POST", `/api/campaigns/${group.id}/domains/${domain.id}/snooze`);
    expect(snoozed.statusCode).toBe(200);
    expect((await member.client.api("DELETE", `/api/campaigns/${group.id}/domains/${domain.id}`)).statusCode).toBe(204);
    expect((await owner.client.api("GET", `/api/campaigns/${group.id}`)).json().data.name).toBe("Clients");
  });

  it("another company's group and domains are not found, whatever the route", async () => {
    const owner = await buildOwner(env());
    const stranger = await buildOwner(env());
    const group = await createGroup(owner.client, "Private");
    const domain = await addDomain(owner.client, group.id, "private-client.com");

    const base = `/api/campaigns/${group.id}`;
    for (const [method, url, body] of [
      ["GET", base, undefined],
      ["PUT", base, { name: "Taken over" }],
      ["DELETE", base, undefined],
      ["POST", `${base}/domains`, { domain: "intruder.com" }],
      ["DELETE", `${base}/domains/${domain.id}`, undefined],
      ["POST", `${base}/domains/${domain.id}/snooze`, undefined],
      ["DELETE", `${base}/domains/${domain.id}/snooze`, undefined],
    ] as const) {
      const response = await stranger.client.api(method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await stranger.client.api("GET", "/api/campaigns")).json().data).toEqual([]);
    expect((await stranger.client.api("GET", "/api/company")).json().data.campaignsCount).toBe(0);
    // The same name is free in another company.
    await createGroup(stranger.client, "Private");

    // A domain of one group is not reachable through another group of the same company either.
    const other = await createGroup(owner.client, "Other");
    const wrongGroup = `/api/campaigns/${other.id}/domains/${domain.id}`;
    expect((await owner.client.api("DELETE", wrongGroup)).statusCode).toBe(404);
    expect((await owner.client.api("POST", `${wrongGroup}/snooze`)).statusCode).toBe(404);

    const after = (await owner.client.api("GET", base)).json().data as TCampaign;
    expect(after).toMatchObject({ name: "Private", domain_count: 1 });
    expect(after.domains.map((d) => [d.domain, d.snoozed])).toEqual([["private-client.com", false]]);
  });

  it("refuses a bad name with a message on the field", async () => {
    const owner = await buildOwner(env());
    await createGroup(owner.client, "Existing");
    const cases: [unknown, Record<string, string[]>][] = [
      [{}, { name: [CAMPAIGN_MESSAGES.nameRequired] }],
      [{ name: "  " }, { name: [CAMPAIGN_MESSAGES.nameRequired] }],
      [{ name: "x".repeat(101) }, { name: [CAMPAIGN_MESSAGES.nameMax] }],
      [{ name: "existing" }, { name: [CAMPAIGN_MESSAGES.nameTaken] }],
      [{ name: "Fine", color: "red" }, { color: ["The color field is not allowed."] }],
    ];
    for (const [body, errors] of cases) {
      const response = await owner.client.api("POST", "/api/campaigns", body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json().errors).toEqual(errors);
    }
    const other = await createGroup(owner.client, "x".repeat(100));
    const clash = await owner.client.api("PUT", `/api/campaigns/${other.id}`, { name: "EXISTING" });
    expect(clash.statusCode).toBe(422);
    expect(clash.json().errors).toEqual({ name: [CAMPAIGN_MESSAGES.nameTaken] });
    expect((await owner.client.api("GET", "/api/company")).json().data.campaignsCount).toBe(2);
  });

  it("normalises a domain to its host, refuses what is not a public one, and keeps it unique in the group", async () => {
    const owner = await buildOwner(env());
    const group = await createGroup(owner.client, "Clients");
    const added = await addDomain(owner.client, group.id, "https://www.Example.com/path?x");
    expect(added).toMatchObject({
      campaign_id: group.id,
      domain: "example.com",
      label: null,
      alerts_snoozed_until: null,
      snoozed: false,
      open_alert_count: 0,
    });
    expect((await addDomain(owner.client, group.id, "Bücher.de")).domain).toBe("xn--bcher-kva.de");

    const refusals: [unknown, string][] = [
      [{ domain: "example.com" }, DOMAIN_MESSAGES.duplicate],
      [{ domain: "http://WWW.example.com:8080/" }, DOMAIN_MESSAGES.duplicate],
      [{ domain: "" }, DOMAIN_MESSAGES.required],
      [{}, DOMAIN_MESSAGES.required],
      [{ domain: "localhost:3000" }, DOMAIN_MESSAGES.notPublic],
      [{ domain: "intranet.local" }, DOMAIN_MESSAGES.notPublic],
      [{ domain: "10.0.0.1" }, DOMAIN_MESSAGES.ipAddress],
      [{ domain: "not a domain" }, DOMAIN_MESSAGES.invalid],
    ];
    for (const [body, message] of refusals) {
      const response = await owner.client.api("POST", `/api/campaigns/${group.id}/domains`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json().errors).toEqual({ domain: [message] });
    }

    // The same domain may be in another group; a subdomain is another site.
    const other = await createGroup(owner.client, "Watch list");
    await addDomain(owner.client, other.id, "example.com");
    await addDomain(owner.client, group.id, "blog.example.com");

    const shown = (await owner.client.api("GET", `/api/campaigns/${group.id}`)).json().data as TCampaign;
    expect(shown.domain_count).toBe(3);
    expect(shown.domains.map((d) => d.domain)).toEqual(["blog.example.com", "example.com", "xn--bcher-kva.de"]);
    const list = (await owner.client.api("GET", "/api/campaigns")).json().data as TCampaign[];
    expect(list.map((g) => [g.name, g.domain_count])).toEqual([
      ["Clients", 3],
      ["Watch list", 1],
    ]);

    expect((await owner.client.api("DELETE", `/api/campaigns/${group.id}/domains/${added.id}`)).statusCode).toBe(204);
    expect((await owner.client.api("DELETE", `/api/campaigns/${group.id}/domains/${added.id}`)).statusCode).toBe(404);
    // Once removed it may be added again.
    await addDomain(owner.client, group.id, "example.com");
  });

  it("snoozes a domain's alerts for a week and un-snoozes them; snoozed alerts are not counted", async () => {
    const owner = await buildOwner(env());
    const group = await createGroup(owner.client, "Clients");
    const quiet = await addDomain(owner.client, group.id, "quiet.com");
    const noisy = await addDomain(owner.client, group.id, "noisy.com");
    await seedData(env(), owner.company.id, noisy.id);
    await seedData(env(), owner.company.id, noisy.id, { day: "2026-11-02", metric: "domainRating" });
    // A resolved alert is history, not an open one.
    await seedData(env(), owner.company.id, quiet.id, { state: "resolved" });

    const before = (await owner.client.api("GET", `/api/campaigns/${group.id}`)).json().data as TCampaign;
    expect(before.open_alert_count).toBe(2);
    expect(before.domains.map((d) => [d.domain, d.open_alert_count])).toEqual([
      ["noisy.com", 2],
      ["quiet.com", 0],
    ]);

    const started = Date.now();
    const snoozed = await owner.client.api("POST", `/api/campaigns/${group.id}/domains/${noisy.id}/snooze`);
    expect(snoozed.statusCode).toBe(200);
    const domain: TCampaignDomain = snoozed.json().data;
    expect(domain).toMatchObject({ id: noisy.id, domain: "noisy.com", snoozed: true, open_alert_count: 0 });
    const until = Date.parse(String(domain.alerts_snoozed_until));
    expect(until).toBeGreaterThanOrEqual(started + 7 * DAY_MS - 1000);
    expect(until).toBeLessThanOrEqual(Date.now() + 7 * DAY_MS);

    const list = (await owner.client.api("GET", "/api/campaigns")).json().data as TCampaign[];
    expect(list[0]).toMatchObject({ domain_count: 2, open_alert_count: 0 });

    const woken = await owner.client.api("DELETE", `/api/campaigns/${group.id}/domains/${noisy.id}/snooze`);
    expect(woken.statusCode).toBe(200);
    // The snooze ends now rather than being cleared: the evaluation then decides afresh (see alerts.test.ts).
    expect(woken.json().data).toMatchObject({ snoozed: false, open_alert_count: 2 });
    expect(Date.parse(woken.json().data.alerts_snoozed_until)).toBeLessThanOrEqual(Date.now());

    // A snooze whose week has passed counts as over.
    await env()
      .ctx.db.updateTable("campaign_domains")
      .set({ alerts_snoozed_until: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", noisy.id)
      .execute();
    const after = (await owner.client.api("GET", `/api/campaigns/${group.id}`)).json().data as TCampaign;
    expect(after.open_alert_count).toBe(2);
    expect(after.domains[0]).toMatchObject({ domain: "noisy.com", snoozed: false, open_alert_count: 2 });

    const missing = await owner.client.api("POST", `/api/campaigns/${group.id}/domains/nope/snooze`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(CAMPAIGN_MESSAGES.domainNotFound);
  });

  it("deleting a domain or a group deletes their daily values and alerts, and nothing else", async () => {
    const owner = await buildOwner(env());
    const doomed = await createGroup(owner.client, "Doomed");
    const kept = await createGroup(owner.client, "Kept");
    const a = await addDomain(owner.client, doomed.id, "a-client.com");
    const b = await addDomain(owner.client, doomed.id, "b-client.com");
    const c = await addDomain(owner.client, kept.id, "a-client.com");
    for (const domain of [a, b, c]) await seedData(env(), owner.company.id, domain.id);

    expect((await owner.client.api("DELETE", `/api/campaigns/${doomed.id}/domains/${a.id}`)).statusCode).toBe(204);
    expect(await rowsOf(env(), [a.id])).toEqual({ domains: 0, days: 0, alerts: 0 });
    expect(await rowsOf(env(), [b.id, c.id])).toEqual({ domains: 2, days: 2, alerts: 2 });

    expect((await owner.client.api("DELETE", `/api/campaigns/${doomed.id}`)).statusCode).toBe(204);
    expect(await rowsOf(env(), [b.id])).toEqual({ domains: 0, days: 0, alerts: 0 });
    expect(await rowsOf(env(), [c.id])).toEqual({ domains: 1, days: 1, alerts: 1 });
    expect((await owner.client.api("GET", "/api/campaigns")).json().data).toMatchObject([
      { name: "Kept", domain_count: 1, open_alert_count: 1 },
    ]);
  });

  it("keeps one open alert per dedupe key, resolved ones as history (ready for the alert jobs)", async () => {
    const owner = await buildOwner(env());
    const group = await createGroup(owner.client, "Clients");
    const domain = await addDomain(owner.client, group.id, "client.com");
    const alert = (state: "open" | "resolved") => ({
      id: newId(),
      company_id: owner.company.id,
      campaign_domain_id: domain.id,
      rule: "dr_drop",
      dedupe_key: `${domain.id}:dr_drop`,
      state,
      opened_at: new Date().toISOString(),
      resolved_at: null,
      reason: "Domain rating fell by 2.",
      passing_count: 0,
    });
    const db = env().ctx.db;
    await db.insertInto("campaign_alerts").values(alert("resolved")).execute();
    await db.insertInto("campaign_alerts").values(alert("resolved")).execute();
    await db.insertInto("campaign_alerts").values(alert("open")).execute();
    await expect(db.insertInto("campaign_alerts").values(alert("open")).execute()).rejects.toThrow();
  });
});
