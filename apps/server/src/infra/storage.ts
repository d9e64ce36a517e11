import fs from "node:fs/promises";
import path from "node:path";
import { AppError } from "./errors";
import { newId } from "./security";

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

/** Image kinds the product accepts (docs/product.md §5: png, jpg, jpeg, webp), recognised by their first bytes. */
export function sniffImage(buffer: Buffer): "png" | "jpg" | "webp" | null {
  if (
    buffer.length >= 8 &&
    buffer.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  ) {
    return "png";
  }
  if (buffer.length >= 3 && buffer[0] === 0xff && buffer[1] === 0xd8 && buffer[2] === 0xff) return "jpg";
  if (buffer.length >= 12 && buffer.toString("ascii", 0, 4) === "RIFF" && buffer.toString("ascii", 8, 12) === "WEBP") {
    return "webp";
  }
  return null;
}

export interface Storage {
  /**
   * Stores bytes under a generated name in the company's folder; returns the public path. Uploads are
   * held to MAX_UPLOAD_BYTES; the server's own files (PDF exports) may pass a larger limit.
   */
  put(companyId: string, extension: string, bytes: Buffer, maxBytes?: number): Promise<string>;
  read(publicPath: string): Promise<Buffer | null>;
  remove(companyId: string, publicPath: string): Promise<boolean>;
  /** Absolute root the public paths live under (served at /files). */
  root: string;
}

const PUBLIC_PREFIX = "/files/";

/**
 * Local-disk storage under `root` (`<DATA_DIR>/files`, or a directory every process shares);
 * names are random so they cannot be guessed.
 */
export function createDiskStorage(root: string): Storage {
  const resolve = (publicPath: string): string | null => {
    if (!publicPath.startsWith(PUBLIC_PREFIX)) return null;
    const relative = publicPath.slice(PUBLIC_PREFIX.length);
    if (!/^[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+\.[a-z0-9]+$/.test(relative)) return null;
    return path.join(root, relative);
  };
  return {
    root,
    async put(companyId, extension, bytes, maxBytes = MAX_UPLOAD_BYTES) {
      if (bytes.length > maxBytes) throw AppError.validation({ file: ["The file may not be greater than 5 MB."] });
      const dir = path.join(root, companyId);
      await fs.mkdir(dir, { recursive: true });
      const name = `${newId(16)}.${extension}`;
      await fs.writeFile(path.join(dir, name), bytes);
      return `${PUBLIC_PREFIX}${companyId}/${name}`;
    },
    async read(publicPath) {
      const file = resolve(publicPath);
      if (!file) return null;
      return fs.readFile(file).catch(() => null);
    },
    async remove(companyId, publicPath) {
      const file = resolve(publicPath);
      // A company may only delete files in its own folder.
      if (!file || !publicPath.startsWith(`${PUBLIC_PREFIX}${companyId}/`)) return false;
      return fs.unlink(file).then(
        () => true,
        () => false,
      );
    },
  };
}

/** Validates an uploaded image by content and stores it (docs/product.md §5 'Invalid file type'). */
export async function storeImage(storage: Storage, companyId: string, bytes: Buffer, field = "file"): Promise<string> {
  const kind = sniffImage(bytes);
  if (!kind) throw AppError.validation({ [field]: ["Invalid file type"] });
  return storage.put(companyId, kind, bytes);
}
