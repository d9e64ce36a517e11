import { API } from "@app/core";
import { type App, actorOf, readForm } from "../../infra/http";
import type { FilesService } from "./service";

/** Files API of docs/product.md §7: images for passive upload widgets. */
export function fileRoutes(app: App, files: FilesService) {
  const tags = ["files"];
  app.post(
    "/api/files/:kind",
    {
      schema: {
        tags,
        summary: "Upload an image for a passive widget (multipart, file field `file`)",
        consumes: ["multipart/form-data"],
        params: API.fileUpload.params,
        body: API.fileUpload.body,
        response: { 200: API.fileUpload.output },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const form = await readForm(request);
      return { data: await files.uploadImage(actor.companyId, form.files.file) };
    },
  );

  app.delete(
    "/api/files",
    { schema: { tags, summary: "Delete an uploaded image by its filename", body: API.fileDelete.body } },
    async (request, reply) => {
      const actor = actorOf(request);
      await files.removeImage(actor.companyId, request.body);
      return reply.code(204).send();
    },
  );
}
