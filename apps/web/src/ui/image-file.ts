/** docs/product.md §5: image uploads accept these types and extensions only. */
export const IMAGE_MIME_TYPES = ["image/jpeg", "image/jpg", "image/png", "image/webp"] as const;
export const IMAGE_EXTENSIONS = ["png", "jpg", "jpeg", "webp"] as const;
export const INVALID_FILE_TYPE = "Invalid file type";

/** True when the file is one of the accepted image types (by MIME type and extension). */
export function isAcceptedImage(file: File): boolean {
  const extension = file.name.split(".").pop()?.toLowerCase() ?? "";
  const typeOk = file.type === "" || (IMAGE_MIME_TYPES as readonly string[]).includes(file.type);
  return typeOk && (IMAGE_EXTENSIONS as readonly string[]).includes(extension);
}
