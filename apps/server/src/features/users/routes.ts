import { dataEnvelope, ZUser, ZUserCreate, ZUserData, ZUserUpdate } from "@app/core";

import { z } from "zod";
import { type App, actorOf, parseInput, readBody, requireAdmin, zPathParam } from "../../infra/http";
import type { UsersService } from "./service";

const ZIdParams = z.object({ id: zPathParam });

/** Team API of docs/product.md §7; roles enforced here and in the service (docs/product.md §6). */
export function userRoutes(app: App, users: UsersService) {
  const tags = ["users"];
  app.get("/api/users", { schema: { tags, response: { 200: dataEnvelope(z.array(ZUser)) } } }, async (request) => {
    return { data: await users.list(requireAdmin(request)) };
  });

  app.get(
    "/api/users/:id",
    { schema: { tags, params: ZIdParams, response: { 200: dataEnvelope(ZUser) } } },
    async (request) => {
      const { id } = request.params as z.infer<typeof ZIdParams>;
      return { data: await users.get(actorOf(request), id) };
    },
  );

  app.post(
    "/api/users",
    { schema: { tags, summary: "Invite a team member", response: { 200: dataEnvelope(ZUser) } } },
    async (request) => {
      const actor = requireAdmin(request);
      return { data: await users.invite(actor, parseInput(ZUserCreate, await readBody(request))) };
    },
  );

  app.put(
    "/api/users/:id",
    { schema: { tags, params: ZIdParams, response: { 200: dataEnvelope(ZUser) } } },
    async (request) => {
      const { id } = request.params as z.infer<typeof ZIdParams>;
      const input = parseInput(ZUserUpdate, await readBody(request));
      return { data: await users.update(actorOf(request), id, input, request.auth?.sessionId ?? null) };
    },
  );

  app.delete("/api/users/:id", { schema: { tags, params: ZIdParams } }, async (request, reply) => {
    const { id } = request.params as z.infer<typeof ZIdParams>;
    await users.remove(actorOf(request), id);
    return reply.code(204).send();
  });

  app.post(
    "/api/user/data",
    { schema: { tags, summary: "Submit other data (intro, onboarding)", response: { 200: dataEnvelope(ZUser) } } },
    async (request) => {
      return { data: await users.submitData(actorOf(request), parseInput(ZUserData, await readBody(request))) };
    },
  );
}
