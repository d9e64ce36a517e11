import { shiftDay, todayInTimezone } from "@app/core";
import { afterAll, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { describeEachDb, type TestClient } from "../../../test/harness";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { classifyJsonApi } from "./classify";
import { fakeKlaviyoDay, fakeKlaviyoEvents, KLAVIYO_KEY, KLAVIYO_MESSAGES, klaviyoFake } from "./fake";

const fakes = fakesForFile(afterAll, () => ({ klaviyo: klaviyoFake() }));
const running = () => fakes.current();
const klaviyo = async () => (await running()).parts.klaviyo;

const TYPE = "klaviyo.report";
const today = () => new Date().toISOString().slice(0, 10);
const daysOf = (start: string, end: string) => {
  const out: string[] = [];
  for (let day = start; day <= end; day = shiftDay(day, 1)) out.push(day);
  return out;
};
/** One statistic of the messages of a campaign or flow over days. */
const total = (messages: string[], days: string[], name: keyof ReturnType<typeof fakeKlaviyoDay>) =>
  messages.reduce(
    (sum, message) => sum + days.reduce((inner, day) => inner + fakeKlaviyoDay(message, day)[name], 0),
    0,
  );
const messagesOf = (kind: "campaign" | "flow", id?: string) =>
  KLAVIYO_MESSAGES.filter((message) => (id ? message[kind] === id : message[kind] !== null)).map(
    (message) => message.id,
  );

/**
 * A source with a key of its own: the values reports allow 2 a minute per account, and each test is
 * its own account so one test's reports do not use up another's minute.
 */
async function connect(client: TestClient, token?: string) {
  const key = token ?? `pk_${Math.random().toString(16).slice(2)}${Math.random().toString(16).slice(2)}`;
  (await klaviyo()).keys.add(key);
  const response = await client.api("POST", "/api/sources", { name: "klaviyo", account: "typed", token: key });
  expect(response.statusCode).toBe(200);
  return { id: response.json().data.id as string, key };
}

describeEachDb(
  "Klaviyo against a local Klaviyo",
  (env) => {
    it("a wrong key is the form's 422 on token in Klaviyo's words; the right one stores the account's name", async () => {
      const { client } = await buildOwner(env());
      const list = (await client.api("GET", "/api/configs/connectors")).json().data;
      expect(list.find((entry: { key: string }) => entry.key === "klaviyo")).toMatchObject({
        displayName: "Klaviyo [beta]",
        order: 23,
        authKind: "account+token",
        available: true,
        note: expect.stringContaining("Beta"),
      });
      // The conversion metric is asked only of campaign and flow reports.
      const report = (await client.api("GET", "/api/configs/widgets/klaviyo")).json().data[0];
      expect(report.params.find((p: { key: string }) => p.key === "conversionMetric").unless).toBe(
        "target!:campaign|flow",
      );
      const wrong = await client.api("POST", "/api/sources", { name: "klaviyo", account: "Acme", token: "pk_wrong" });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().errors.token).toEqual([
        "Klaviyo refused these credentials: Authentication credentials were not provided. Missing or invalid private key. (not_authenticated)",
      ]);
      expect((await client.api("GET", "/api/sources")).json().data).toEqual([]);
      const before = (await running()).calls.length;
      const { id } = await connect(client, KLAVIYO_KEY);
      expect((await client.api("GET", "/api/sources")).json().data).toEqual([
        expect.objectContaining({ id, name: "klaviyo", account: "Acme Outfitters", invalid: false }),
      ]);
      const call = (await running()).calls.slice(before).find((entry) => entry.path === "/api/accounts/");
      expect(call?.headers.authorization).toBe(`Klaviyo-API-Key ${KLAVIYO_KEY}`);
      expect(call?.headers.revision).toBe("2025-10-15");
    });

    it("the conversion metric picker lists every page of /api/metrics/; metrics and dimension follow the target", async () => {
      const { client } = await buildOwner(env());
      const { id } = await connect(client);
      const picker = await client.api("GET", `/api/sources/${id}/conversionMetrics?type=${TYPE}&target=campaign`);
      expect(picker.json().data).toEqual([
        { value: "ClkEml", label: "Clicked Email (Klaviyo)" },
        { value: "OpnEml", label: "Opened Email (Klaviyo)" },
        { value: "PlcOrd", label: "Placed Order (Shopify)" },
        { value: "RcvEml", label: "Received Email (Klaviyo)" },
        { value: "UnsEml", label: "Unsubscribed (Klaviyo)" },
      ]);
      const account = await client.api("GET", `/api/sources/${id}/metrics?type=${TYPE}&target=account`);
      expect(account.json().data.map((option: { value: string }) => option.value)).toEqual([
        "received",
        "opened",
        "clicked",
        "unsubscribed",
      ]);
      const dims = await client.api("GET", `/api/sources/${id}/dimensions?type=${TYPE}&target=flow`);
      expect(dims.json().data).toEqual([{ value: "flow", label: "Flow" }]);
      // The fake refuses what Klaviyo refuses: no revision header.
      const bare = await fetch(`${(await running()).url}/api/metrics/`, {
        headers: { authorization: `Klaviyo-API-Key ${KLAVIYO_KEY}` },
      });
      expect(bare.status).toBe(400);
    });

    it("campaigns: the values report by campaign, rates from counts, revenue in the account's currency", async () => {
      const { client } = await buildOwner(env());
      const { id } = await connect(client);
      const start = shiftDay(today(), -40);
      const end = shiftDay(today(), -34);
      const days = daysOf(start, end);
      const from = (await klaviyo()).reports.length;
      const response = await widgetData(
        client,
        [
          instance(id, TYPE, {
            target: "campaign",
            conversionMetric: "PlcOrd",
            dimension: "campaign",
            metrics: ["delivered", "open_rate", "conversion_value"],
          }),
        ],
        { startDate: start, endDate: end, comparison: false },
      );
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      expect(table.dimension).toEqual({ key: "campaign", label: "Campaign", kind: "string" });
      expect(table.metrics).toEqual([
        { key: "a.delivered", label: "Delivered", format: "number" },
        { key: "a.open_rate", label: "Open rate", format: "percent" },
        { key: "a.conversion_value", label: "Conversion value", format: "money", currency: "USD" },
      ]);
      const row = (campaign: string, name: string) => {
        const messages = messagesOf("campaign", campaign);
        return {
          dimension: name,
          values: [
            total(messages, days, "delivered"),
            (total(messages, days, "opens_unique") / total(messages, days, "delivered")) * 100,
            total(messages, days, "conversion_value"),
          ],
        };
      };
      const expected = [row("01HCAMPAIGNSPRING", "Spring Sale"), row("01HCAMPAIGNNEWS12", "Newsletter #12")].sort(
        (a, b) => (b.values[0] as number) - (a.values[0] as number),
      );
      expect(table.rows.map((entry: { dimension: string }) => entry.dimension)).toEqual(
        expected.map((entry) => entry.dimension),
      );
      for (const [index, entry] of expected.entries()) {
        expect(table.rows[index].values[0]).toBe(entry.values[0]);
        expect(table.rows[index].values[1]).toBeCloseTo(entry.values[1] as number, 9);
        expect(table.rows[index].values[2]).toBe(entry.values[2]);
      }
      const all = messagesOf("campaign");
      expect(table.totals[0]).toBe(total(all, days, "delivered"));
      expect(table.totals[1]).toBeCloseTo((total(all, days, "opens_unique") / total(all, days, "delivered")) * 100, 9);
      const [report] = (await klaviyo()).reports.slice(from);
      expect(report).toEqual({
        path: "/api/campaign-values-reports/",
        body: {
          data: {
            type: "campaign-values-report",
            attributes: {
              statistics: ["delivered", "open_rate", "opens_unique", "conversion_value"],
              timeframe: { start: `${start}T00:00:00+00:00`, end: `${shiftDay(end, 1)}T00:00:00+00:00` },
              conversion_metric_id: "PlcOrd",
              filter: 'equals(send_channel,"email")',
            },
          },
        },
      });
    });

    it("flows: one daily series report covers the range and its comparison; each period adds up its own days", async () => {
      const { client } = await buildOwner(env());
      const { id } = await connect(client);
      // 20 days and the 20 before them: 40 days, inside the 60 a daily series takes.
      const start = shiftDay(today(), -30);
      const end = shiftDay(today(), -11);
      const compareStart = shiftDay(start, -20);
      const compareEnd = shiftDay(start, -1);
      const from = (await klaviyo()).reports.length;
      const response = await client.api("POST", "/api/widgets/data", {
        instances: [
          instance(id, TYPE, {
            target: "flow",
            conversionMetric: "PlcOrd",
            dimension: "flow",
            metrics: ["delivered", "click_rate"],
          }),
        ],
        timezone: "Pacific/Auckland",
        startDate: start,
        endDate: end,
        comparison: true,
        compareStartDate: compareStart,
        compareEndDate: compareEnd,
      });
      expect(response.statusCode, response.body).toBe(200);
      const asked = (await klaviyo()).reports.slice(from);
      expect(asked.map((report) => report.path)).toEqual(["/api/flow-series-reports/"]);
      const attributes = (asked[0]?.body.data as { attributes: Record<string, unknown> } | undefined)?.attributes;
      // The viewer's midnights (Auckland, 11 or 13 hours ahead) from the comparison's first day to the day
      // after the range's last; counts only (rates are computed from them).
      expect(attributes).toMatchObject({
        statistics: ["delivered", "clicks_unique"],
        interval: "daily",
        conversion_metric_id: "PlcOrd",
        filter: 'equals(send_channel,"email")',
      });
      const frame = attributes?.timeframe as { start: string; end: string };
      expect(todayInTimezone("Pacific/Auckland", new Date(frame.start))).toBe(compareStart);
      expect(todayInTimezone("Pacific/Auckland", new Date(Date.parse(frame.end) - 1))).toBe(end);
      // The span's k-th day is the k-th bucket, a day after the timeframe's start; the fake counts a
      // bucket as the UTC date of its start (as its values reports count days).
      const bucketDays = (first: string, last: string) =>
        daysOf(first, last).map((day) => {
          const k = daysOf(compareStart, day).length - 1;
          return new Date(Date.parse(frame.start) + k * 86_400_000).toISOString().slice(0, 10);
        });
      const data = response.json().data;
      const welcome = messagesOf("flow", "WelcomeFlw");
      for (const [table, days] of [
        [data.current, bucketDays(start, end)],
        [data.previous, bucketDays(compareStart, compareEnd)],
      ] as const) {
        expect(days).toHaveLength(20);
        const row = table.rows.find((entry: { dimension: string }) => entry.dimension === "Welcome Series");
        expect(row.values[0]).toBe(total(welcome, days, "delivered"));
        expect(row.values[1]).toBeCloseTo(
          (total(welcome, days, "clicks_unique") / total(welcome, days, "delivered")) * 100,
          9,
        );
        expect(table.totals[0]).toBe(total(messagesOf("flow"), days, "delivered"));
      }
    });

    it("the reports' 1-a-second burst: the comparison's report is sent a second after the range's answer; a second one within a second is Klaviyo's 429", async () => {
      const { client } = await buildOwner(env());
      const { id, key } = await connect(client);
      const start = shiftDay(today(), -40);
      const end = shiftDay(today(), -34);
      const from = (await klaviyo()).reports.length;
      const response = await widgetData(
        client,
        [instance(id, TYPE, { target: "campaign", conversionMetric: "PlcOrd", metrics: ["delivered"] })],
        { startDate: start, endDate: end, comparison: true },
      );
      expect(response.statusCode, response.body).toBe(200);
      // Both periods answered (no "limiting requests" notice): two values reports, paced a second apart.
      expect(response.json().data.current.notice ?? null).toBeNull();
      const asked = (await klaviyo()).reports.slice(from);
      expect(asked.map((report) => report.path)).toEqual([
        "/api/campaign-values-reports/",
        "/api/campaign-values-reports/",
      ]);
      const [first, second] = (await klaviyo()).reportTimes.get(key) ?? [];
      expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(1_000);
      // Two sent straight after each other, as an unpaced client would: the second is refused in
      // Klaviyo's words and shape (a key of its own, so the minute's two are not what refuses it).
      const { url } = await running();
      const fresh = `pk_${Math.random().toString(16).slice(2)}${Math.random().toString(16).slice(2)}`;
      (await klaviyo()).keys.add(fresh);
      const send = () =>
        fetch(`${url}/api/campaign-values-reports/`, {
          method: "POST",
          headers: {
            authorization: `Klaviyo-API-Key ${fresh}`,
            revision: "2025-10-15",
            accept: "application/vnd.api+json",
            "content-type": "application/json",
          },
          body: JSON.stringify(asked[0]?.body),
        });
      expect((await send()).status).toBe(200);
      const refused = await send();
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(((await refused.json()) as { errors: unknown[] }).errors).toEqual([
        expect.objectContaining({
          status: 429,
          code: "throttled",
          title: "Request was throttled.",
          detail: "Request was throttled. Expected available in 1 second.",
        }),
      ]);
    });

    it("flows whose two periods together pass the 60 days a daily series takes: a series per period", async () => {
      const { client } = await buildOwner(env());
      const { id } = await connect(client);
      const start = shiftDay(today(), -60);
      const end = shiftDay(today(), -21);
      const from = (await klaviyo()).reports.length;
      const response = await widgetData(
        client,
        [instance(id, TYPE, { target: "flow", conversionMetric: "PlcOrd", metrics: ["recipients"] })],
        { startDate: start, endDate: end, comparison: true },
      );
      expect(response.statusCode, response.body).toBe(200);
      // 40 days and the 40 before: 80 days together, so each period is a series of its own (40 days).
      expect((await klaviyo()).reports.slice(from).map((report) => report.path)).toEqual([
        "/api/flow-series-reports/",
        "/api/flow-series-reports/",
      ]);
      expect(response.json().data.current.totals).toEqual([
        total(messagesOf("flow"), daysOf(start, end), "recipients"),
      ]);
    });

    it("a range longer than the year a values report takes is asked window by window and added up", async () => {
      const { client } = await buildOwner(env());
      const { id } = await connect(client);
      // 500 days: a window of 365 days, then one of 135 (the fake refuses a timeframe over a year, as Klaviyo).
      const start = shiftDay(today(), -520);
      const end = shiftDay(today(), -21);
      const days = daysOf(start, end);
      const from = (await klaviyo()).reports.length;
      const response = await widgetData(
        client,
        [instance(id, TYPE, { target: "flow", conversionMetric: "PlcOrd", metrics: ["delivered", "click_rate"] })],
        { startDate: start, endDate: end, comparison: false },
      );
      expect(response.statusCode).toBe(200);
      const flows = messagesOf("flow");
      const totals = response.json().data.current.totals;
      expect(totals[0]).toBe(total(flows, days, "delivered"));
      expect(totals[1]).toBeCloseTo((total(flows, days, "clicks_unique") / total(flows, days, "delivered")) * 100, 9);
      const frames = (await klaviyo()).reports
        .slice(from)
        .map((report) => (report.body.data as { attributes: { timeframe: unknown } }).attributes.timeframe);
      const middle = shiftDay(start, 365);
      expect(frames).toEqual([
        { start: `${start}T00:00:00+00:00`, end: `${middle}T00:00:00+00:00` },
        { start: `${middle}T00:00:00+00:00`, end: `${shiftDay(end, 1)}T00:00:00+00:00` },
      ]);
    });

    it("flows without a dimension give totals; the account target counts Klaviyo's e-mail events by day", async () => {
      const { client } = await buildOwner(env());
      const { id } = await connect(client);
      const start = shiftDay(today(), -60);
      const end = shiftDay(today(), -55);
      const days = daysOf(start, end);
      const range = { startDate: start, endDate: end, comparison: false };
      const flows = await widgetData(
        client,
        [instance(id, TYPE, { target: "flow", conversionMetric: "PlcOrd", metrics: ["recipients", "unsubscribes"] })],
        range,
      );
      expect(flows.statusCode).toBe(200);
      expect(flows.json().data.current.rows).toEqual([]);
      expect(flows.json().data.current.totals).toEqual([
        total(messagesOf("flow"), days, "recipients"),
        total(messagesOf("flow"), days, "unsubscribes"),
      ]);

      const from = (await klaviyo()).reports.length;
      const account = await widgetData(
        client,
        [instance(id, TYPE, { target: "account", dimension: "date", metrics: ["received", "opened"] })],
        range,
      );
      expect(account.statusCode).toBe(200);
      const table = account.json().data.current;
      expect(table.dimension).toEqual({ key: "date", label: "Date", kind: "date" });
      expect(table.rows).toEqual(
        days.map((day) => ({
          dimension: day,
          values: [fakeKlaviyoEvents("Received Email", day), fakeKlaviyoEvents("Opened Email", day)],
        })),
      );
      expect(table.totals).toEqual([
        days.reduce((sum, day) => sum + fakeKlaviyoEvents("Received Email", day), 0),
        days.reduce((sum, day) => sum + fakeKlaviyoEvents("Opened Email", day), 0),
      ]);
      const asked = (await klaviyo()).reports.slice(from);
      expect(
        asked
          .map((entry) => (entry.body as { data: { attributes: { metric_id: string } } }).data.attributes.metric_id)
          .sort(),
      ).toEqual(["OpnEml", "RcvEml"]);
    });

    it("the conversion metric is required for campaigns, not for the account; a refused one is a 422 in Klaviyo's words", async () => {
      const { client } = await buildOwner(env());
      const { id } = await connect(client);
      const range = { startDate: shiftDay(today(), -80), endDate: shiftDay(today(), -75), comparison: false };
      const missing = await widgetData(
        client,
        [instance(id, TYPE, { target: "campaign", metrics: ["delivered"] })],
        range,
      );
      expect(missing.statusCode).toBe(422);
      expect(JSON.stringify(missing.json())).toContain("The conversion metric field is required.");
      const unknown = await widgetData(
        client,
        [instance(id, TYPE, { target: "flow", conversionMetric: "Nope", metrics: ["delivered"] })],
        range,
      );
      expect(unknown.statusCode).toBe(422);
      expect(JSON.stringify(unknown.json())).toContain("Metric with id Nope does not exist.");
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("a revoked key makes the source invalid (banner 125)", async () => {
      const { client } = await buildOwner(env());
      const { id, key } = await connect(client);
      const state = await klaviyo();
      state.keys.delete(key);
      try {
        const response = await widgetData(client, [instance(id, TYPE, { target: "account", metrics: ["clicked"] })], {
          startDate: shiftDay(today(), -90),
          endDate: shiftDay(today(), -88),
          comparison: false,
        });
        expect(response.statusCode).toBe(502);
        expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(true);
        expect(JSON.stringify((await client.api("GET", "/api/page-data")).json())).toContain("125");
      } finally {
        state.keys.add(key);
      }
    });

    it("throttled (429) or down: the stored result is served with a notice; the source stays valid", async () => {
      const { client, company } = await buildOwner(env());
      const sources = env().services.get("sources");
      const state = await klaviyo();
      const range = { startDate: shiftDay(today(), -2), endDate: today() };
      for (const [status, headers, metric, message] of [
        [429, { "retry-after": "1" }, "clicks_unique", "Klaviyo [beta] is limiting requests"],
        [503, {}, "conversions", "Klaviyo [beta] is not answering"],
      ] as const) {
        // In the data path's order (declared parameters, sorted), so both look up the same stored result.
        const inputs = { conversionMetric: "PlcOrd", metrics: [metric], target: "flow" };
        const { id } = await connect(client);
        const stored = await sources.query(company.id, await sources.load(company.id, id), {
          type: TYPE,
          inputs,
          range,
          timezone: "UTC",
        });
        expect(stored.table.totals).toEqual([
          total(messagesOf("flow"), daysOf(range.startDate, range.endDate), metric),
        ]);
        const ask = () =>
          client.api("POST", "/api/widgets/data", {
            instances: [instance(id, TYPE, inputs)],
            timezone: "UTC",
            ...range,
            comparison: false,
          });
        const fetchedAt = new Date(Date.now() - 20 * 60_000).toISOString();
        await env()
          .ctx.db.updateTable("provider_results")
          .set({ fetched_at: fetchedAt })
          .where("source_id", "=", id)
          .execute();
        for (let attempt = 0; attempt < 3; attempt += 1) {
          state.failNext.push({
            status,
            headers,
            pathIncludes: "/api/flow-series-reports/",
            body: {
              errors: [{ id: "e", status, code: "throttled", title: "Request was throttled.", detail: "Try later." }],
            },
          });
        }
        try {
          const response = await ask();
          expect(response.statusCode, `${status} ${response.body}`).toBe(200);
          const data = response.json().data;
          expect(data.current.totals).toEqual(stored.table.totals);
          expect(data.notices).toEqual([{ instanceId: expect.any(String), asOf: fetchedAt, message }]);
        } finally {
          state.failNext.splice(0);
        }
      }
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("the values reports' 2 a minute are counted before asking: a third report is served from the store", async () => {
      const { client, company } = await buildOwner(env());
      const { id } = await connect(client);
      const sources = env().services.get("sources");
      const handle = async () => sources.load(company.id, id);
      const range = { startDate: shiftDay(today(), -1), endDate: today() };
      const request = (metric: string) => ({
        type: TYPE,
        inputs: { conversionMetric: "PlcOrd", metrics: [metric], target: "campaign" },
        range,
        timezone: "UTC",
      });
      const from = (await klaviyo()).reports.length;
      const first = await sources.query(company.id, await handle(), request("recipients"));
      await env()
        .ctx.db.updateTable("provider_results")
        .set({ fetched_at: new Date(Date.now() - 20 * 60_000).toISOString() })
        .where("source_id", "=", id)
        .execute();
      await sources.query(company.id, await handle(), request("delivered"));
      expect((await klaviyo()).reports.slice(from)).toHaveLength(2);
      const third = await sources.query(company.id, await handle(), request("recipients"));
      expect(third.table).toEqual(first.table);
      expect(third.notice?.message).toBe("Klaviyo [beta] is limiting requests");
      expect((await klaviyo()).reports.slice(from)).toHaveLength(2);
    });

    it("a settled range is served from the database without spending another report", async () => {
      const { client, company } = await buildOwner(env());
      const { id } = await connect(client);
      const sources = env().services.get("sources");
      const range = { startDate: shiftDay(today(), -200), endDate: shiftDay(today(), -194) };
      const request = {
        type: TYPE,
        inputs: { target: "campaign", conversionMetric: "PlcOrd", metrics: ["recipients"] },
        range,
        timezone: "UTC",
      };
      const from = (await klaviyo()).reports.length;
      const first = await sources.query(company.id, await sources.load(company.id, id), request);
      expect(first.table.totals).toEqual([
        total(messagesOf("campaign"), daysOf(range.startDate, range.endDate), "recipients"),
      ]);
      expect((await klaviyo()).reports.slice(from)).toHaveLength(1);
      const again = await sources.query(company.id, await sources.load(company.id, id), request);
      expect(again.table).toEqual(first.table);
      expect((await klaviyo()).reports.slice(from)).toHaveLength(1);
    });
  },
  fakes.env,
);

it("classifies JSON:API errors: keys are auth, throttling is rate with Retry-After, a bad metric is the form's", () => {
  const answer = (status: number, error: Record<string, unknown>, headers: Record<string, string> = {}) => ({
    status,
    body: { errors: [{ id: "e", status, ...error }] },
    headers: new Headers(headers),
    now: 0,
  });
  const auth = classifyJsonApi("klaviyo", answer(401, { code: "not_authenticated", title: "T", detail: "D" }));
  expect([auth?.kind, auth?.reason]).toEqual(["auth", "T D (not_authenticated)"]);
  expect(classifyJsonApi("klaviyo", answer(403, { code: "permission_denied" }))?.kind).toBe("auth");
  const throttled = classifyJsonApi("klaviyo", answer(429, { code: "throttled" }, { "retry-after": "12" }));
  expect([throttled?.kind, throttled?.retryAfterMs]).toEqual(["rate", 12_000]);
  const metric = classifyJsonApi(
    "klaviyo",
    answer(400, { code: "invalid", detail: "x", source: { pointer: "/data/attributes/conversion_metric_id" } }),
  );
  expect([metric?.kind, metric?.field]).toEqual(["input", "conversionMetric"]);
  expect(classifyJsonApi("klaviyo", answer(503, { code: "error" }))?.kind).toBe("server");
  expect(classifyJsonApi("klaviyo", { status: 200, body: { data: [] }, headers: new Headers(), now: 0 })).toBeNull();
});
