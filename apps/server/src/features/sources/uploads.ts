import type { TOption } from "@app/core";
import type { Connector } from "../../connectors";
import type { Db } from "../../infra/db";
import { AppError } from "../../infra/errors";
import type { FormInput } from "../../infra/http";
import type { FilesService } from "../files/service";

/** Most files one upload source holds; each is a property the widget form lists. */
export const MAX_SOURCE_FILES = 50;

/** Checks an upload with its connector (before any transaction: parsing is the slow part). */
export function checkUpload(connector: Connector, file: FormInput["files"][string] | undefined) {
  if (!connector.upload) throw AppError.validation({ file: ["This source does not take files."] });
  if (!file) throw AppError.validation({ file: ["The file field is required."] });
  connector.upload.check(file);
  return { file, extension: connector.upload.extension };
}

/** Stores a checked upload, its file row on `db` (the source's transaction); the property the new file becomes. */
export async function storeUpload(
  files: FilesService,
  companyId: string,
  connector: Connector,
  upload: ReturnType<typeof checkUpload>,
  db: Db,
): Promise<TOption> {
  const stored = await files.storeSourceFile(companyId, connector.key, upload.extension, upload.file, db);
  return { value: stored.id, label: stored.name };
}
