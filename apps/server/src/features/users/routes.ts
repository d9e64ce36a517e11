import { API } from "@app/core";
import { type App, actorOf, adminOnly, requireAdmin } from "../../infra/http";
import type { UsersService } from "./service";

/** Team API of docs/product.md §7; roles enforced here and in the service (docs/product.md §6). */
export function userRoutes(app: App, users: UsersService) {
  const tags = ["users"];
  app.get("/api/users", { schema: { tags, response: { 200: API.usersList.output } } }, async (request) => {
    return { data: await users.list(requireAdmin(request)) };
  });

  app.get(
    "/api/users/:id",
    { schema: { tags, params: API.userShow.params, response: { 200: API.userShow.output } } },
    async (request) => {
      return { data: await users.get(actorOf(request), request.params.id) };
    },
  );

  app.post(
    "/api/users",
    {
      preValidation: adminOnly,
      schema: {
        tags,
        summary: "Invite a team member",
        body: API.userInvite.body,
        response: { 200: API.userInvite.output },
      },
    },
    async (request) => {
      const actor = requireAdmin(request);
      return { data: await users.invite(actor, request.body) };
    },
  );

  app.put(
    "/api/users/:id",
    {
      schema: {
        tags,
        params: API.userUpdate.params,
        body: API.userUpdate.body,
        response: { 200: API.userUpdate.output },
      },
    },
    async (request) => {
      const input = request.body;
      return { data: await users.update(actorOf(request), request.params.id, input, request.auth?.sessionId ?? null) };
    },
  );

  app.delete("/api/users/:id", { schema: { tags, params: API.userDelete.params } }, async (request, reply) => {
    await users.remove(actorOf(request), request.params.id);
    return reply.code(204).send();
  });

  app.post(
    "/api/user/data",
    {
      schema: {
        tags,
        summary: "Submit other data (intro, onboarding)",
        body: API.userData.body,
        response: { 200: API.userData.output },
      },
    },
    async (request) => {
      return { data: await users.submitData(actorOf(request), request.body) };
    },
  );
}
