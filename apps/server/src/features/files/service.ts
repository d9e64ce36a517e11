import type { TFileDelete, TFileUpload } from "@app/core";
import type { AppContext } from "../../context";
import type { Db } from "../../infra/db";
import { AppError } from "../../infra/errors";
import type { FormInput } from "../../infra/http";
import { newId, nowIso } from "../../infra/security";
import { type Storage, sniffImage } from "../../infra/storage";
import { filesRepo } from "./repo";

/** Declared types the image upload accepts (docs/product.md §5); the content is checked by its magic bytes as well. */
export const IMAGE_MIME_TYPES = ["image/jpeg", "image/jpg", "image/png", "image/webp"] as const;

type Upload = FormInput["files"][string];

/** Company files: passive-widget images and the uploads behind CSV sources. */
export function filesService(ctx: AppContext, storage: Storage) {
  const repo = filesRepo(ctx.db);

  async function store(companyId: string, kind: string, extension: string, upload: Upload, db: Db = ctx.db) {
    const path = await storage.put(companyId, extension, upload.data);
    const row = {
      id: newId(),
      company_id: companyId,
      kind,
      path,
      original_name: upload.filename.slice(0, 255) || `upload.${extension}`,
      size: upload.data.length,
      created_at: nowIso(),
    };
    await filesRepo(db).insert(row);
    return row;
  }

  return {
    /** POST /api/files/image: a picture for a passive upload widget, checked by declared type and content. */
    async uploadImage(companyId: string, upload: Upload | undefined): Promise<TFileUpload> {
      if (!upload) throw AppError.validation({ file: ["The file field is required."] });
      const kind = sniffImage(upload.data);
      if (!kind || !(IMAGE_MIME_TYPES as readonly string[]).includes(upload.mimetype.toLowerCase())) {
        throw AppError.validation({ file: ["Invalid file type"] });
      }
      const row = await store(companyId, "image", kind, upload);
      return { filename: row.path, url: `${ctx.config.appUrl}${row.path}` };
    },

    /** DELETE /api/files: only the company's own images (source files go with their source). */
    async removeImage(companyId: string, input: TFileDelete): Promise<void> {
      // The client may send back the absolute URL it was given; the stored key is the path.
      const path = input.filename.startsWith(ctx.config.appUrl)
        ? input.filename.slice(ctx.config.appUrl.length)
        : input.filename;
      const row = await repo.findByPath(companyId, "image", path);
      if (!row) throw AppError.notFound("File not found.");
      await repo.delete(companyId, row.id);
      await storage.remove(companyId, row.path);
    },

    /**
     * Stores an upload already checked by its connector; returns the file's id and name. Its row is
     * written on `db`: the source's transaction, so the file row exists only with its source.
     */
    async storeSourceFile(companyId: string, kind: string, extension: string, upload: Upload, db: Db = ctx.db) {
      const row = await store(companyId, kind, extension, upload, db);
      return { id: row.id, name: row.original_name };
    },

    /** Bytes of one of the company's files, or null when it is not theirs or is gone. */
    async read(companyId: string, fileId: string): Promise<Buffer | null> {
      const row = await repo.find(companyId, fileId);
      return row ? storage.read(row.path) : null;
    },

    async remove(companyId: string, fileId: string): Promise<void> {
      const row = await repo.find(companyId, fileId);
      if (!row) return;
      await repo.delete(companyId, row.id);
      await storage.remove(companyId, row.path);
    },
  };
}

export type FilesService = ReturnType<typeof filesService>;
