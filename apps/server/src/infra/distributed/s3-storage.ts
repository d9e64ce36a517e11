import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { AppError } from "../errors";
import { newId } from "../security";
import { MAX_UPLOAD_BYTES, type Storage } from "../storage";

const PUBLIC_PREFIX = "/files/";
const NAME = /^[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+\.[a-z0-9]+$/;

export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * Uploaded files in S3-compatible object storage, for processes that share no disk. Same public paths
 * (`/files/{companyId}/{name}.{ext}`) and the same rules as the disk storage: random names, a company
 * deletes only in its own folder, and anything that is not such a path reads as missing.
 */
export async function createS3Storage(settings: S3Settings): Promise<Storage & { close(): void }> {
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: true,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
  });
  const bucket = settings.bucket;
  // The bucket is created on first start; an operator may also create it (with its own policy) beforehand.
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
  } catch {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  }
  const keyOf = (publicPath: string): string | null => {
    if (!publicPath.startsWith(PUBLIC_PREFIX)) return null;
    const relative = publicPath.slice(PUBLIC_PREFIX.length);
    return NAME.test(relative) ? relative : null;
  };
  return {
    root: `s3://${bucket}`,
    async put(companyId, extension, bytes, maxBytes = MAX_UPLOAD_BYTES) {
      if (bytes.length > maxBytes) throw AppError.validation({ file: ["The file may not be greater than 5 MB."] });
      const key = `${companyId}/${newId(16)}.${extension}`;
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes }));
      return `${PUBLIC_PREFIX}${key}`;
    },
    async read(publicPath) {
      const key = keyOf(publicPath);
      if (!key) return null;
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : null;
      } catch {
        return null;
      }
    },
    async remove(companyId, publicPath) {
      const key = keyOf(publicPath);
      if (!key || !publicPath.startsWith(`${PUBLIC_PREFIX}${companyId}/`)) return false;
      try {
        // S3 deletes a missing key without complaint; ask first so that, like the disk, removing
        // nothing answers false.
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
        return true;
      } catch {
        return false;
      }
    },
    close: () => client.destroy(),
  };
}
