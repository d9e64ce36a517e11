import fs from "node:fs";
import os from "node:os";
import path from "node:path";
// @ts-expect-error s3rver ships no type declarations; its constructor, run() and close() are all we use.
import S3rver from "s3rver";
import { freePort } from "./distributed/cluster";

export interface TestS3 {
  endpoint: string;
  stop(): Promise<void>;
}

/** A real local S3 server (s3rver) on a free loopback port, with its objects in a temp folder. */
export async function startTestS3(): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-s3-"));
  const port = await freePort();
  const server = new S3rver({ address: "127.0.0.1", port, silent: true, directory });
  await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async stop() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
