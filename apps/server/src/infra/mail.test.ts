import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../../test/harness";

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
    const owner = env.client();
    await owner.signUpAndPassIntro();
    const email = `smtp-invitee-${Date.now()}@example.com`;
    expect((await owner.api("POST", "/api/users", { name: "Sam Smtp", email, roleName: "user" })).statusCode).toBe(200);
    expect(received).toHaveLength(1);
    expect(received[0].to).toEqual([email]);
    const body = received[0].raw.replace(/=\r?\n/g, "");
    expect(body).toContain("Subject: Olivia Owner invited you to join Olivia Owner's company on Reportz");
    expect(body).toMatch(/\/password\/set\/[A-Za-z0-9_-]+/);
    expect(env.outbox()).toEqual([]);
  });
});
