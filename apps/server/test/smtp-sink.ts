import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  /** The SMTP envelope's recipients (what the server was asked to deliver to). */
  to: string[];
  raw: Buffer;
  parsed: ParsedMail;
}

/**
 * A real SMTP server on a free loopback port that keeps what it receives, parsed as a mail client
 * would (mailparser). `refuse` makes it answer 550 to the given recipients.
 */
export async function startSmtpSink(options: { refuse?: (address: string) => boolean } = {}) {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    size: 60 * 1024 * 1024,
    onRcptTo(address, _session, callback) {
      if (options.refuse?.(address.address)) {
        const error = new Error("Mailbox unavailable") as Error & { responseCode: number };
        error.responseCode = 550;
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks);
        // keepCidLinks: the HTML as sent (mailparser would otherwise inline cid: images as data URLs).
        void simpleParser(raw, { keepCidLinks: true }).then((parsed) => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, parsed });
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
