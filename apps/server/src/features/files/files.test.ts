import { expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { describeEachDb, PNG_1X1, type TestClient } from "../../../test/harness";

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]);
const WEBP = Buffer.concat([Buffer.from("RIFF"), Buffer.from([0x24, 0, 0, 0]), Buffer.from("WEBPVP8 ")]);

function upload(client: TestClient, data: Buffer, type: string, kind = "image", filename = "picture.png") {
  return client.apiMultipart("POST", `/api/files/${kind}`, {}, { file: { filename, type, data } });
}

describeEachDb("files API", (env) => {
  it("uploads jpeg, jpg, png and webp images checked by content and serves them", async () => {
    const { client: owner, company } = await buildOwner(env());
    for (const [data, type] of [
      [PNG_1X1, "image/png"],
      [JPEG, "image/jpeg"],
      [JPEG, "image/jpg"],
      [WEBP, "image/webp"],
    ] as const) {
      const response = await upload(owner, data, type);
      expect(response.statusCode).toBe(200);
      const { filename, url } = response.json().data;
      expect(filename).toMatch(new RegExp(`^/files/${company.id}/[A-Za-z0-9_-]+\\.(png|jpg|webp)$`));
      expect(url).toBe(`${env().ctx.config.appUrl}${filename}`);
      const served = await owner.raw("GET", filename);
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(data)).toBe(true);
    }
  });

  it("refuses other content or declared types with 'Invalid file type', and unknown kinds", async () => {
    const { client: owner } = await buildOwner(env());
    const text = await upload(owner, Buffer.from("<svg onload=alert(1)>"), "image/png");
    expect(text.statusCode).toBe(422);
    expect(text.json().errors).toEqual({ file: ["Invalid file type"] });
    const gif = await upload(owner, Buffer.from("GIF89a......"), "image/gif");
    expect(gif.json().errors).toEqual({ file: ["Invalid file type"] });
    const declared = await upload(owner, PNG_1X1, "application/pdf");
    expect(declared.json().errors).toEqual({ file: ["Invalid file type"] });
    const none = await owner.apiMultipart("POST", "/api/files/image", {});
    expect(none.json().errors).toEqual({ file: ["The file field is required."] });
    const kind = await upload(owner, PNG_1X1, "image/png", "video");
    expect(kind.statusCode).toBe(422);
    expect(Object.keys(kind.json().errors)).toEqual(["kind"]);
  });

  it("deletes the company's own images only", async () => {
    const { client: alpha } = await buildOwner(env());
    const { filename, url } = (await upload(alpha, PNG_1X1, "image/png")).json().data;
    const { client: beta } = await buildOwner(env());
    const foreign = await beta.api("DELETE", "/api/files", { filename });
    expect(foreign.statusCode).toBe(404);
    expect((await alpha.raw("GET", filename)).statusCode).toBe(200);
    const missing = await alpha.api("DELETE", "/api/files", {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual({ filename: ["The filename field is required."] });
    // The absolute URL the upload answered works as well as the path.
    expect((await alpha.api("DELETE", "/api/files", { filename: url })).statusCode).toBe(204);
    expect((await alpha.raw("GET", filename)).statusCode).toBe(404);
    expect((await alpha.api("DELETE", "/api/files", { filename })).statusCode).toBe(404);
  });

  it("does not delete the files behind CSV sources", async () => {
    const { client: owner, company } = await buildOwner(env());
    await owner.apiMultipart(
      "POST",
      "/api/sources",
      { name: "csv" },
      { file: { filename: "a.csv", type: "text/csv", data: Buffer.from("a,b\n1,2") } },
    );
    const row = await env()
      .ctx.db.selectFrom("files")
      .select("path")
      .where("company_id", "=", company.id)
      .executeTakeFirstOrThrow();
    expect((await owner.api("DELETE", "/api/files", { filename: row.path })).statusCode).toBe(404);
  });

  it("needs a session", async () => {
    const guest = env().client();
    await guest.pageData();
    const response = await guest.apiMultipart(
      "POST",
      "/api/files/image",
      {},
      { file: { filename: "a.png", type: "image/png", data: PNG_1X1 } },
    );
    expect(response.statusCode).toBe(401);
  });
});
