import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOwner } from "../../test/factories";
import { startTestEnv, type TestEnv } from "../../test/harness";
import { createMailer, mailDisplayName, mailFromAddress } from "./mail";

describe("From parts", () => {
  it.each([
    ["Reportz <no-reply@reportz.local>", "no-reply@reportz.local"],
    ["no-reply@agency.example", "no-reply@agency.example"],
    ['"Reports, Inc." <mail@agency.example> ', "mail@agency.example"],
  ])("the address of MAIL_FROM %s is %s", (setting, address) => {
    expect(mailFromAddress(setting)).toBe(address);
  });

  it("a display name is one line without control characters", () => {
    expect(mailDisplayName("  Acme\r\nBcc: x@evil.example\u0000\u2028Co\t ")).toBe("Acme Bcc: x@evil.example Co");
    expect(mailDisplayName("x".repeat(300))).toHaveLength(120);
  });
});

describe("the outbox (no SMTP_URL)", () => {
  it("keeps every message whole under its own name, even many to one address in the same moment", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "outbox-"));
    try {
      const mailer = createMailer({
        smtpUrl: null,
        from: "Reportz <no-reply@reportz.local>",
        dataDir,
        logger: pino({ level: "silent" }),
      });
      // A body of some size: a reader polling the folder must never find it half written.
      const body = "Last 30 Days ".repeat(20_000);
      await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          mailer.send({
            to: "client@example.com",
            subject: `Report ${index}`,
            text: `${index} ${body}`,
            html: `<p>${index}</p>`,
          }),
        ),
      );
      const names = fs.readdirSync(path.join(dataDir, "outbox"));
      expect(names).toHaveLength(8);
      const subjects = names.map(
        (name) => /^Subject: (.*)$/m.exec(fs.readFileSync(path.join(dataDir, "outbox", name), "utf8"))?.[1],
      );
      expect(subjects.sort()).toEqual(Array.from({ length: 8 }, (_, index) => `Report ${index}`));
      expect(fs.readdirSync(dataDir).sort()).toEqual(["outbox", "outbox-writing"]);
      expect(fs.readdirSync(path.join(dataDir, "outbox-writing"))).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** A real SMTP sink: the invitation travels through nodemailer's SMTP transport, not the outbox. */
describe("mail over SMTP (SMTP_URL set)", () => {
  const received: Array<{ to: string[]; raw: string }> = [];
  let smtp: SMTPServer;
  let env: TestEnv & { close(): Promise<void> };

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData(stream, session, callback) {
        let raw = "";
        stream.on("data", (chunk: Buffer) => {
          raw += chunk.toString("utf8");
        });
        stream.on("end", () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()));
    const { port } = smtp.server.address() as AddressInfo;
    env = await startTestEnv("sqlite", { SMTP_URL: `smtp://127.0.0.1:${port}` });
  });

  afterAll(async () => {
    await env.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it("sends the invitation to the invited address, with the password link, and writes no outbox file", async () => {
    const { client: owner } = await buildOwner(env, { company: { name: "Olivia Owner's company" } });
    const email = `smtp-invitee-${Date.now()}@example.com`;
    expect((await owner.api("POST", "/api/users", { name: "Sam Smtp", email, roleName: "user" })).statusCode).toBe(200);
    expect(received).toHaveLength(1);
    expect(received[0].to).toEqual([email]);
    const body = received[0].raw.replace(/=\r?\n/g, "");
    expect(body).toContain("Subject: Olivia Owner invited you to join Olivia Owner's company on Reportz");
    // White label: the inviting company's name, with the configured address.
    expect(body).toMatch(/^From: "?Olivia Owner's company"? <no-reply@reportz\.local>$/m);
    expect(body).toMatch(/\/password\/set\/[A-Za-z0-9_-]+/);
    expect(env.outbox()).toEqual([]);
  });
});
