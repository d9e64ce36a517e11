import { createPublicKey, createVerify } from "node:crypto";
import { SENDER_MESSAGES, type TCompany } from "@app/core";
import { afterAll, describe, expect, it } from "vitest";
import { type DnsZone, startDnsServer } from "../../../test/dns-server";
import { buildMember, buildOwner } from "../../../test/factories";
import { describeEachDb } from "../../../test/harness";
import { startSmtpSink } from "../../../test/smtp-sink";
import { senderRecords, splitTxt, txtMatches } from "./records";

describe("sender DNS records (pure)", () => {
  const records = senderRecords(
    { domain: "agency.example", selector: "rzabc", dkimPublic: "A".repeat(400) },
    { spfInclude: "spf.reportz.example", returnPathHost: "bounces.reportz.example" },
  );
  it("SPF include, DKIM key at <selector>._domainkey, return-path CNAME", () => {
    expect(records.map(({ type, host }) => `${type} ${host}`)).toEqual([
      "TXT agency.example",
      "TXT rzabc._domainkey.agency.example",
      "CNAME bounces.agency.example",
    ]);
    expect(records[0].value).toBe("v=spf1 include:spf.reportz.example ~all");
    expect(records[1].value).toBe(`v=DKIM1; k=rsa; p=${"A".repeat(400)}`);
  });
  it.each<[string, string[][], boolean]>([
    ["our include among others", [["v=spf1 include:_spf.google.com include:spf.reportz.example -all"]], true],
    ["another policy only", [["v=spf1 include:_spf.google.com ~all"]], false],
    ["a verification string, not SPF", [["google-site-verification=abc"]], false],
  ])("SPF: %s", (_name, found, ok) => {
    expect(txtMatches("spf", records[0], found)).toBe(ok);
  });
  it("DKIM: the key split into 255-character strings still matches; another key does not", () => {
    expect(txtMatches("dkim", records[1], [splitTxt(records[1].value)])).toBe(true);
    expect(txtMatches("dkim", records[1], [["v=DKIM1; k=rsa; p=BBBB"]])).toBe(false);
    expect(splitTxt(records[1].value).every((part) => part.length <= 255)).toBe(true);
  });
});

const zone: DnsZone = {};
let dns: Awaited<ReturnType<typeof startDnsServer>>;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;

/** Publishes the company's records in the test DNS server, as its admin would at the DNS host. */
function publish(company: TCompany, except: string[] = []) {
  zone.txt ??= {};
  zone.cname ??= {};
  for (const record of company.emailDns) {
    if (except.includes(record.host)) continue;
    if (record.type === "TXT") zone.txt[record.host] = [splitTxt(record.value)];
    else zone.cname[record.host] = record.value;
  }
}

describeEachDb(
  "white-label sender: DNS verification and DKIM-signed mail",
  (env) => {
    afterAll(async () => {
      dns.close();
      await sink.close();
    });

    it("an admin sets the address and gets the records; members cannot; bad addresses get 422", async () => {
      const owner = await buildOwner(env());
      const set = await owner.client.api("PUT", "/api/company/sender", { address: "reports@northwind.example" });
      expect(set.statusCode).toBe(200);
      const company: TCompany = set.json().data;
      expect(company.fromAddress).toBe("reports@northwind.example");
      expect(company.verifiedWhitelabel).toBe(false);
      expect(company.emailDns.map((r) => [r.type, r.host.replace(/^rz[a-z0-9]+\./, "<sel>."), r.verified])).toEqual([
        ["TXT", "northwind.example", false],
        ["TXT", "<sel>._domainkey.northwind.example", false],
        ["CNAME", "bounces.northwind.example", false],
      ]);
      expect(company.emailDns[1].value).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]{300,}$/);
      for (const [address, message] of [
        ["not-an-address", SENDER_MESSAGES.address],
        ["me@localhost", SENDER_MESSAGES.address],
        ["reports@printer.local", SENDER_MESSAGES.publicDomain],
      ]) {
        const refused = await owner.client.api("PUT", "/api/company/sender", { address });
        expect(refused.statusCode).toBe(422);
        expect(refused.json().errors.address).toEqual([message]);
      }
      const member = await buildMember(env(), { company: owner.company, role: "user" });
      expect((await member.client.api("PUT", "/api/company/sender", { address: "x@y.example" })).statusCode).toBe(403);
      expect((await member.client.api("POST", "/api/company/sender/verify", {})).statusCode).toBe(403);
      // Nothing saved was lost by the refusals.
      expect((await owner.client.api("GET", "/api/company")).json().data.fromAddress).toBe("reports@northwind.example");
    });

    it("Verify looks the records up: one missing says which; all found verifies; a new address starts again", async () => {
      const owner = await buildOwner(env());
      const none = await owner.client.api("POST", "/api/company/sender/verify", {});
      expect(none.statusCode).toBe(422);
      expect(none.json().errors.address).toEqual([SENDER_MESSAGES.notSet]);
      let company: TCompany = (
        await owner.client.api("PUT", "/api/company/sender", { address: "hi@acme-agency.example" })
      ).json().data;
      publish(company, ["bounces.acme-agency.example"]);
      company = (await owner.client.api("POST", "/api/company/sender/verify", {})).json().data;
      expect(company.emailDns.map((record) => record.verified)).toEqual([true, true, false]);
      expect(company.emailDns[2].problem).toBe("No CNAME record found at bounces.acme-agency.example.");
      expect(company.verifiedWhitelabel).toBe(false);
      // A wrong DKIM value is named as such.
      const dkimHost = company.emailDns[1].host;
      const good = zone.txt?.[dkimHost];
      (zone.txt as Record<string, string[][]>)[dkimHost] = [["v=DKIM1; k=rsa; p=AAAA"]];
      publish(company, [dkimHost]);
      company = (await owner.client.api("POST", "/api/company/sender/verify", {})).json().data;
      expect(company.emailDns[1]).toMatchObject({
        verified: false,
        problem: `The TXT record at ${dkimHost} does not match the value to add.`,
      });
      (zone.txt as Record<string, string[][]>)[dkimHost] = good as string[][];
      company = (await owner.client.api("POST", "/api/company/sender/verify", {})).json().data;
      expect(company.verifiedWhitelabel).toBe(true);
      expect(company.emailDns.every((record) => record.verified && record.problem === null)).toBe(true);
      // A new address has a new key and records: not verified until checked again.
      company = (await owner.client.api("PUT", "/api/company/sender", { address: "news@acme-agency.example" })).json()
        .data;
      expect(company.verifiedWhitelabel).toBe(false);
      expect(company.emailDns[1].host).not.toBe(dkimHost);
    });

    it("a lookup that never answers fails the check with a clear message, not a hang", async () => {
      const owner = await buildOwner(env());
      const company: TCompany = (
        await owner.client.api("PUT", "/api/company/sender", { address: "a@silent.example" })
      ).json().data;
      zone.silent = company.emailDns.map((record) => record.host.toLowerCase());
      const checked: TCompany = (await owner.client.api("POST", "/api/company/sender/verify", {})).json().data;
      expect(checked.emailDns.map((record) => record.problem)).toEqual(
        Array(3).fill("The DNS lookup timed out. Try again in a minute."),
      );
      zone.silent = [];
    }, 20_000);

    it("mail of a verified company comes from its address, DKIM-signed with its key (the published one verifies it)", async () => {
      const owner = await buildOwner(env(), { company: { name: "Verified Agency" } });
      const company: TCompany = (
        await owner.client.api("PUT", "/api/company/sender", { address: "reports@verified.example" })
      ).json().data;
      publish(company);
      expect((await owner.client.api("POST", "/api/company/sender/verify", {})).json().data.verifiedWhitelabel).toBe(
        true,
      );
      const from = await env().services.get("sender").senderFor(owner.company.id);
      expect(from).toMatchObject({ fromName: "Verified Agency", fromAddress: "reports@verified.example" });
      await env().ctx.mailer.send({
        to: "client@example.com",
        subject: "Signed",
        text: "Hello",
        html: "<p>Hello</p>",
        ...from,
      });
      const mail = sink.received.at(-1);
      expect(mail?.parsed.from?.value[0]).toEqual({ name: "Verified Agency", address: "reports@verified.example" });
      const raw = mail?.raw.toString("utf8") ?? "";
      const headerBlock = raw.split(/\r?\n\r?\n/)[0];
      const unfolded = headerBlock.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/);
      const dkimRaw = unfolded.find((l) => l.toLowerCase().startsWith("dkim-signature:")) as string;
      const header = dkimRaw.slice(dkimRaw.indexOf(":") + 1);
      const tags = Object.fromEntries(
        header.split(";").map((part) => part.trim().split(/=(.*)/s, 2) as [string, string]),
      );
      const selector = company.emailDns[1].host.split(".")[0];
      expect(tags.d).toBe("verified.example");
      expect(tags.s).toBe(selector);
      // The signature checks out against the key published in DNS (rsa-sha256 over the signed headers).
      const published = company.emailDns[1].value.split("p=")[1];
      const key = createPublicKey({ key: Buffer.from(published, "base64"), format: "der", type: "spki" });
      const relaxed = (line: string) => {
        const at = line.indexOf(":");
        return `${line.slice(0, at).toLowerCase().trim()}:${line
          .slice(at + 1)
          .replace(/\s+/g, " ")
          .trim()}`;
      };
      const signedNames = tags.h.split(":").map((name: string) => name.trim().toLowerCase());
      const lines = signedNames.map((name: string) => {
        const line = unfolded.find((l) => l.toLowerCase().startsWith(`${name}:`));
        return relaxed(line as string);
      });
      const dkimLine = relaxed(dkimRaw).replace(/b=[^;]*$/, "b=");
      const verifier = createVerify("RSA-SHA256");
      verifier.update(`${lines.join("\r\n")}\r\n${dkimLine}`);
      expect(verifier.verify(key, tags.b.replace(/\s+/g, ""), "base64")).toBe(true);
    });
  },
  async () => {
    // Each database's run starts with an empty zone (the same domains are used again).
    zone.txt = {};
    zone.cname = {};
    zone.silent = [];
    dns = await startDnsServer(zone);
    sink = await startSmtpSink();
    return { DNS_SERVERS: dns.server, SMTP_URL: sink.url };
  },
);
