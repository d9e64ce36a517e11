import { API } from "@app/core";
import { type App, actorOf, requireAuth } from "../../infra/http";
import type { SignedInSessionsService } from "./service";

/** The current user's signed-in sessions (the profile page). Thin: the contract validates, the service decides. */
export function signedInSessionRoutes(app: App, sessions: SignedInSessionsService) {
  const tags = ["users"];
  app.get(
    "/api/user/sessions",
    {
      schema: {
        tags,
        summary: "The current user's signed-in sessions: browser, system, place, first and last seen",
        response: { 200: API.userSessionsList.output },
      },
    },
    async (request) => ({ data: await sessions.list(actorOf(request), requireAuth(request).sessionId) }),
  );

  app.delete(
    "/api/user/sessions/:id",
    { schema: { tags, summary: "Sign one of the current user's sessions out", params: API.userSessionEnd.params } },
    async (request, reply) => {
      await sessions.end(actorOf(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.post(
    "/api/user/sessions/end-others",
    {
      schema: {
        tags,
        summary: "Sign out every session of the current user but this one",
        body: API.userSessionsEndOthers.body,
        response: { 200: API.userSessionsEndOthers.output },
      },
    },
    async (request) => ({
      data: { ended: await sessions.endOthers(actorOf(request), requireAuth(request).sessionId) },
    }),
  );
}
