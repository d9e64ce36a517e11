import { expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { describeEachDb } from "../../../test/harness";

describeEachDb("connector logos API", (env) => {
  it("serves each catalogue connector's mark as an SVG image named after it, to a signed-in user", async () => {
    const { client: owner } = await buildOwner(env());
    const catalogue = (await owner.api("GET", "/api/configs/connectors")).json().data as { key: string }[];
    expect(catalogue.length).toBeGreaterThan(0);
    for (const { key } of catalogue) {
      const answer = await owner.api("GET", `/api/configs/connectors/${key}/logo.svg`);
      expect(answer.statusCode, key).toBe(200);
      expect(answer.headers["content-type"], key).toMatch(/^image\/svg\+xml/);
      expect(answer.body, key).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 32 32" role="img"/);
      expect(answer.body, key).toMatch(/ aria-label="[^"]+ logo"/);
      expect(answer.body, key).toMatch(/<\/svg>$/);
    }
    expect((await owner.api("GET", "/api/configs/connectors/nope/logo.svg")).statusCode).toBe(404);
  });

  it("needs a session", async () => {
    const guest = env().client();
    await guest.pageData();
    expect((await guest.raw("GET", "/api/configs/connectors/demo/logo.svg")).statusCode).toBe(401);
  });
});
