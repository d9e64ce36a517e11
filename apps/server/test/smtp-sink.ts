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
export async function startSmtpSink(
  options: {
    refuse?: (address: string) => boolean;
    /** Waits this long before accepting each message (a slow mail server: a run long enough to interrupt). */
    delayMs?: number;
  } = {},
) {
  const received: ReceivedMail[] = [];
  // Clients that hung up: a message is accepted only while its client is there to hear the "250 OK", as
  // a mail server that had not yet committed it would treat it.
  const gone = new Set<string>();
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
    onClose(session) {
      gone.add(session.id);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks);
        // keepCidLinks: the HTML as sent (mailparser would otherwise inline cid: images as data URLs).
        void simpleParser(raw, { keepCidLinks: true }).then((parsed) => {
          setTimeout(() => {
            // Counted when accepted: a message whose sender died before this is not delivered.
            if (gone.has(session.id)) return callback(new Error("client gone"));
            received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, parsed });
            callback();
          }, options.delayMs ?? 0);
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
