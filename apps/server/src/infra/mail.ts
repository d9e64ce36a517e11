import fs from "node:fs/promises";
import path from "node:path";
import type { Transporter } from "nodemailer";
import type { Logger } from "pino";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * Who the recipient sees the mail from (white label, e.g. the inviting agency), sent with the
   * configured MAIL_FROM address; without it MAIL_FROM is used as is.
   */
  fromName?: string;
  /**
   * The company's own sender address, used instead of MAIL_FROM's address only once its sender domain is
   * verified (docs/product.md §9: otherwise the product's no-reply address). The caller decides that.
   */
  fromAddress?: string;
  /** Files attached (a report's PDF) or shown inline by `cid` (a report's preview image). */
  attachments?: MailAttachment[];
  /** DKIM signature with the company's key for its verified sender domain. */
  dkim?: MailDkim;
  /** A fixed Message-ID (`<…@…>`): a resent report keeps its id, so mail systems see one message. */
  messageId?: string;
}

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
  /** Content-ID for `<img src="cid:…">`: the part is then inline, not a download. */
  cid?: string;
}

export interface MailDkim {
  domainName: string;
  keySelector: string;
  /** PEM private key. */
  privateKey: string;
}

/** The bare address of a MAIL_FROM setting: `Name <address>` or just `address`. */
export function mailFromAddress(setting: string): string {
  const match = /<([^<>]+)>\s*$/.exec(setting);
  return (match ? match[1] : setting).trim();
}

/**
 * A display name reduced to one plain line: control characters (CR/LF above all) become spaces, so a
 * company name cannot start a header of its own. Quoting and encoding are nodemailer's (it quotes names
 * with specials such as `"` or `<`, and encodes non-ASCII as an RFC 2047 word).
 */
export function mailDisplayName(name: string): string {
  return name
    .replace(/[\p{Cc}\s]+/gu, " ")
    .trim()
    .slice(0, 120);
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * The mail library, loaded with the first mail rather than at start (~0.1 s of imports that every server
 * start and every server test file paid for: docs/decisions.md, "Libraries a few requests need load on
 * first use"), and the transport made from it once.
 */
function onFirstMail<T extends Transporter>(make: (nodemailer: typeof import("nodemailer")) => T): () => Promise<T> {
  let transport: Promise<T> | null = null;
  return () => {
    transport ??= import("nodemailer").then(make);
    return transport;
  };
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
  const address = mailFromAddress(options.from);
  function envelope({ fromName, fromAddress, ...message }: MailMessage) {
    const name = fromName === undefined ? "" : mailDisplayName(fromName);
    const sender = fromAddress ?? address;
    const from = name ? { name, address: sender } : fromAddress ? fromAddress : options.from;
    return { from, ...message };
  }
  if (options.smtpUrl) {
    const smtpUrl = options.smtpUrl;
    const transport = onFirstMail((nodemailer) => nodemailer.createTransport(smtpUrl));
    return {
      async send(message) {
        await (await transport()).sendMail(envelope(message));
      },
    };
  }
  const outbox = path.join(options.dataDir, "outbox");
  // Written beside the outbox, then renamed into it: whoever reads the outbox (an operator, a test
  // polling for the next mail) sees a whole message or none. Written in place, a reader polling the
  // folder could open a file whose bytes were still being written.
  const writing = path.join(options.dataDir, "outbox-writing");
  const transport = onFirstMail((nodemailer) =>
    nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" }),
  );
  let sequence = 0;
  return {
    async send(message) {
      const info = await (await transport()).sendMail(envelope(message));
      await Promise.all([fs.mkdir(outbox, { recursive: true }), fs.mkdir(writing, { recursive: true })]);
      const safeTo = message.to.replace(/[^a-z0-9@._-]/gi, "_");
      // Sorted by name is sorted by time; two mails to one address in one millisecond keep both.
      sequence = (sequence + 1) % 1_000_000;
      const name = `${Date.now()}-${String(sequence).padStart(6, "0")}-${process.pid}-${safeTo}.eml`;
      const file = path.join(outbox, name);
      await fs.writeFile(path.join(writing, name), info.message as Buffer);
      await fs.rename(path.join(writing, name), file);
      options.logger.info({ file }, "mail written to outbox");
    },
  };
}
