import { z } from "zod";
import { dataEnvelope } from "./common";

/** Kinds accepted by POST /api/files/{kind}: images of passive upload widgets. */
export const FILE_KINDS = ["image"] as const;
export const ZFileKindParams = z.object({ kind: z.enum(FILE_KINDS, { error: "The selected kind is invalid." }) });

/** POST /api/files/{kind} answer: the stored public path (saved in the widget) and its absolute URL. */
export const ZFileUploadResponse = dataEnvelope(z.object({ filename: z.string(), url: z.string() }));
export type TFileUpload = z.infer<typeof ZFileUploadResponse>["data"];

/** DELETE /api/files body. */
export const ZFileDelete = z.strictObject({
  filename: z
    .string({ error: "The filename field is required." })
    .trim()
    .min(1, "The filename field is required.")
    .max(255),
});
export type TFileDelete = z.infer<typeof ZFileDelete>;
