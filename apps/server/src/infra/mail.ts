import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Logger } from "pino";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * SMTP when SMTP_URL is set; otherwise every message is written to `<dataDir>/outbox/`
 * as an .eml file, so a fresh install can still follow invitation links.
 */
export function createMailer(options: {
  smtpUrl: string | null;
  from: string;
  dataDir: string;
  logger: Logger;
}): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ from: options.from, ...message });
      },
    };
  }
  const outbox = path.join(options.dataDir, "outbox");
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: options.from, ...message });
      await fs.mkdir(outbox, { recursive: true });
      const safeTo = message.to.replace(/[^a-z0-9@._-]/gi, "_");
      const file = path.join(outbox, `${Date.now()}-${safeTo}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      options.logger.info({ file }, "mail written to outbox");
    },
  };
}
