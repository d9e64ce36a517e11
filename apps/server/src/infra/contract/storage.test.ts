import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestS3, type TestS3 } from "../../../test/s3";
import { createS3Storage } from "../distributed/s3-storage";
import { AppError } from "../errors";
import { createDiskStorage, MAX_UPLOAD_BYTES, type Storage } from "../storage";

interface StorageSubject {
  storage: Storage;
  /** Another process's handle on the same files (a shared directory, or the same bucket). */
  other: Storage;
  close(): Promise<void>;
}

const subjects: Array<{ name: string; open(): Promise<StorageSubject> }> = [
  {
    name: "disk (embedded, or a shared directory)",
    async open() {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-files-"));
      return {
        storage: createDiskStorage(root),
        other: createDiskStorage(root),
        async close() {
          fs.rmSync(root, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: "S3 (distributed, against a real s3rver)",
    async open() {
      const s3: TestS3 = await startTestS3();
      const settings = {
        endpoint: s3.endpoint,
        bucket: "reportz-test",
        region: "us-east-1",
        accessKeyId: "S3RVER",
        secretAccessKey: "S3RVER",
      };
      // The first one creates the bucket; the second finds it (as a second process would).
      const storage = await createS3Storage(settings);
      const other = await createS3Storage(settings);
      return {
        storage,
        other,
        async close() {
          storage.close();
          other.close();
          await s3.stop();
        },
      };
    },
  },
];

const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);

describe.each(subjects)("Storage contract: $name", (subject) => {
  let files: StorageSubject;
  beforeAll(async () => {
    files = await subject.open();
  });
  afterAll(async () => {
    await files?.close();
  });

  it("stores bytes under a random name in the company's folder, readable by every process", async () => {
    const first = await files.storage.put("company1", "png", png);
    const second = await files.storage.put("company1", "png", png);
    expect(first).toMatch(/^\/files\/company1\/[A-Za-z0-9_-]+\.png$/);
    expect(second).not.toBe(first);
    expect((await files.storage.read(first))?.equals(png)).toBe(true);
    expect((await files.other.read(first))?.equals(png)).toBe(true);
  });

  it("removes a company's own file only", async () => {
    const file = await files.storage.put("company1", "png", png);
    expect(await files.storage.remove("company2", file)).toBe(false);
    expect((await files.storage.read(file))?.equals(png)).toBe(true);
    expect(await files.other.remove("company1", file)).toBe(true);
    expect(await files.storage.read(file)).toBeNull();
    // Already gone: nothing was removed.
    expect(await files.storage.remove("company1", file)).toBe(false);
  });

  it("reads anything that is not one of its public paths as missing", async () => {
    const file = await files.storage.put("company1", "png", png);
    const name = file.split("/").pop();
    for (const bad of [
      "/files/../x",
      `/files/company1/../company1/${name}`,
      "/files/../../etc/passwd",
      "/files/company1/missing.png",
      `/uploads/company1/${name}`,
      `files/company1/${name}`,
      `/files/company1/${name}/`,
      `/files/company1`,
      "",
    ]) {
      expect(await files.storage.read(bad), bad).toBeNull();
      expect(await files.storage.remove("company1", bad), bad).toBe(false);
    }
    expect((await files.storage.read(file))?.equals(png)).toBe(true);
  });

  it("refuses a file over 5 MB with a 422 on the file field", async () => {
    const big = Buffer.alloc(MAX_UPLOAD_BYTES + 1);
    const error = await files.storage.put("company1", "png", big).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(422);
    expect((error as AppError).fields).toEqual({ file: ["The file may not be greater than 5 MB."] });
    // Exactly 5 MB is accepted.
    const limit = await files.storage.put("company1", "png", Buffer.alloc(MAX_UPLOAD_BYTES, 1));
    expect((await files.storage.read(limit))?.length).toBe(MAX_UPLOAD_BYTES);
  });
});
