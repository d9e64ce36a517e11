import { shiftDay, todayInTimezone } from "@app/core";
import { afterAll, expect, it } from "vitest";
import { fakesForFile } from "../../../test/fakes/app";
import { describeEachDb } from "../../../test/harness";
import { lineOf, singleNumber } from "../../features/insights/test-helpers";
import { googleFake } from "../google/fake";
import { searchConsoleFake } from "./fake";

const fakes = fakesForFile(afterAll, () => {
  const google = googleFake();
  return { google, searchConsole: searchConsoleFake(google.state) };
});
const calls = async () => (await fakes.current()).calls;

describeEachDb(
  "insights of Search Console widgets: lagging days",
  (env) => {
    it("Search Console: a range ending inside its lag is not judged (nor asked for); a settled one is", async () => {
      const { client, permalink } = await singleNumber(env(), "searchConsole", "searchConsole.performance", {
        property: "https://acme.com/",
        metrics: ["clicks"],
      });
      const searches = async () =>
        (await calls()).filter((call) => call.path.endsWith("/searchAnalytics/query")).length;
      const yesterday = shiftDay(todayInTimezone("UTC"), -1);
      const before = await searches();
      const lagging = { startDate: shiftDay(yesterday, -6), endDate: yesterday, timezone: "UTC" };
      expect(await lineOf(client, permalink, lagging)).toBeNull();
      expect(await searches()).toBe(before);
      // Three days before today is final: the widget's query and its history go out.
      const settled = { startDate: shiftDay(yesterday, -8), endDate: shiftDay(yesterday, -2), timezone: "UTC" };
      await lineOf(client, permalink, settled);
      const history = (await calls()).filter(
        (call) =>
          call.path.endsWith("/searchAnalytics/query") &&
          (JSON.parse(call.body) as { dimensions?: string[] }).dimensions?.includes("date") === true,
      );
      expect(history.length).toBeGreaterThan(0);
    });
  },
  fakes.env,
);
