/**
 * Facebook Login for social sign-in: the Meta part's dialog, token endpoint and `/me` (./meta.ts) with
 * the same app, so this part only names the login app's variables and lets a person (or a browser test)
 * choose who signs in: `POST /_fake/facebook/user` {id, name, email}.
 */
import { z } from "zod";
import type { FakeMeta } from "../../src/connectors/meta/fake";
import type { FakePart } from "./app";

const ZUser = z.object({ id: z.string().min(1), name: z.string(), email: z.string().nullable() });

export function facebookLoginFake(meta: FakeMeta): FakePart<FakeMeta> {
  return {
    state: meta,
    env: () => ({ SOCIAL_FACEBOOK_APP_ID: meta.appId, SOCIAL_FACEBOOK_APP_SECRET: meta.appSecret }),
    register(app) {
      app.post("/_fake/facebook/user", async (request, reply) => {
        const parsed = ZUser.safeParse(request.body);
        if (!parsed.success) return reply.code(400).send({ error: "body: { id, name, email }" });
        meta.user = parsed.data;
        return meta.user;
      });
    },
  };
}
