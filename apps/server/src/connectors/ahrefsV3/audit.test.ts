import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { describeEachDb } from "../../../test/harness";
import { AHREFS_KEY, ahrefsFake } from "./fake";

const SOURCE_TOKEN = "tok-secret";
const fakes = fakesForFile(afterAll, () => ({ ahrefs: ahrefsFake() }));
const logLines: string[] = [];

describeEachDb(
  "Ahrefs in the company audit log: connected, re-authorised in place, removed; its keys nowhere",
  (env) => {
    beforeAll(async () => {
      (await fakes.current()).parts.ahrefs.keys.add(SOURCE_TOKEN);
      const stream = new Writable({
        write(chunk, _encoding, done) {
          logLines.push(String(chunk));
          done();
        },
      });
      env().ctx.logger = pino({ level: "info" }, stream);
    });

    it("each change is a row by the admin; neither API key is in any row or log line", async () => {
      const owner = await buildOwner(env());
      const connected = await owner.client.api("POST", "/api/sources", {
        name: "ahrefsV3",
        account: "SEO",
        token: SOURCE_TOKEN,
      });
      expect(connected.statusCode, connected.body).toBe(200);
      const id = connected.json().data.id;
      const again = await owner.client.apiMultipart("PUT", `/api/sources/${id}`, { account: "SEO", token: AHREFS_KEY });
      expect(again.statusCode, again.body).toBe(200);
      expect((await owner.client.api("DELETE", `/api/sources/${id}`)).statusCode).toBe(204);
      const rows = await env()
        .ctx.db.selectFrom("audit_events")
        .selectAll()
        .where("company_id", "=", owner.company.id)
        .where("action", "like", "source.%")
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      expect(rows.map((row) => [row.action, row.actor_email, row.target_label, JSON.parse(row.details)])).toEqual([
        ["source.connected", owner.email, "Ahrefs V3 (SEO)", { connector: "ahrefsV3" }],
        ["source.reauthorised", owner.email, "Ahrefs V3 (SEO)", { connector: "ahrefsV3" }],
        ["source.removed", owner.email, "Ahrefs V3 (SEO)", { connector: "ahrefsV3" }],
      ]);
      const everything = JSON.stringify(await env().ctx.db.selectFrom("audit_events").selectAll().execute());
      expect(logLines.filter((line) => line.includes('"audit":'))).not.toHaveLength(0);
      for (const secret of [SOURCE_TOKEN, AHREFS_KEY]) {
        expect(everything).not.toContain(secret);
        for (const line of logLines) expect(line).not.toContain(secret);
      }
    });
  },
  async () => ({ ...(await fakes.env()) }),
);
