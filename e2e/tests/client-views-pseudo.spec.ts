import { expect, type Page, test } from "./fixtures";
import { snap } from "./support";
import { call } from "./support-api";
import { type DemoWidget, incidentDashboard } from "./support-insights";

/**
 * The client's views in the pseudo-locale at a phone's width (docs/decisions.md "The client's views in
 * the pseudo-locale at 390 px"): every word longer and accented (`en-XA`, accepted by the save, not
 * listed), every widget kind, and no text running out of its card — wrapped, not clipped (an ellipsis
 * only where the full text is in the element's title or accessible name).
 */

const WIDGETS: DemoWidget[] = [
  {
    id: "channels",
    title: "Sessions by channel",
    format: "table",
    inputs: { dimension: "channel", metrics: ["sessions", "bounce_rate", "users"] },
  },
  {
    id: "days",
    title: "Sessions by day",
    format: "chart:line",
    inputs: { dimension: "date", metrics: ["sessions", "users"] },
  },
  { id: "area", title: "Users by day", format: "chart:area", inputs: { dimension: "date", metrics: ["users"] } },
  {
    id: "bars",
    title: "Channels compared",
    format: "chart:bar",
    inputs: { dimension: "channel", metrics: ["sessions"] },
  },
  { id: "share", title: "Channel share", format: "chart:pie", inputs: { dimension: "channel", metrics: ["sessions"] } },
  {
    id: "radar",
    title: "Channel profile",
    format: "chart:radar",
    inputs: { dimension: "channel", metrics: ["sessions", "users"] },
  },
  {
    id: "gauge",
    title: "Bounce rate gauge",
    format: "chart:gauge",
    inputs: { metrics: ["bounce_rate"] },
    extra: { formatOptions: { minValue: 0, maxValue: 100 } },
  },
  {
    id: "totals",
    title: "Totals",
    format: "summary",
    inputs: { metrics: ["sessions", "users", "bounce_rate"] },
    extra: { goals: [{ metric: "a.sessions", target: 20000, period: "range" }] },
  },
  {
    id: "note",
    title: "A note",
    text: "<p>Organic Search fell after the site moved; the agency is on it.</p>",
    format: "textCard",
    inputs: {},
  },
];

/** What runs out of its card: a text element or chart label outside the card's box, or cut short. */
interface Overflow {
  card: string;
  text: string;
  why: string;
}

/** Every card's texts checked against the card's box and their own (run in the page). */
function overflowsIn(page: Page): Promise<Overflow[]> {
  return page.locator("article.dash-card").evaluateAll((cards) => {
    const found: { card: string; text: string; why: string }[] = [];
    const slack = 1;
    for (const card of cards as HTMLElement[]) {
      const cardBox = card.getBoundingClientRect();
      const name = card.querySelector("h2, h3")?.textContent ?? card.getAttribute("aria-label") ?? "";
      const texts = Array.from(card.querySelectorAll("*")).filter(
        (element) =>
          Array.from(element.childNodes).some(
            (node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? "").trim(),
          ) && !element.closest("[hidden]"),
      );
      for (const element of texts) {
        const text = (element.textContent ?? "").trim().slice(0, 80);
        const box = element.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;
        // Inside a box that scrolls sideways (a wide table), the text is reached by scrolling.
        let container: Element = card;
        for (let up = element.parentElement; up && up !== card; up = up.parentElement) {
          const overflowX = getComputedStyle(up).overflowX;
          if (overflowX === "auto" || overflowX === "scroll") {
            container = up;
            break;
          }
        }
        const outer = container === card ? cardBox : container.getBoundingClientRect();
        const scrollable = container === card ? 0 : (container as HTMLElement).scrollWidth - outer.width;
        if (
          box.left < outer.left - slack ||
          box.right > outer.right + scrollable + slack ||
          (container === card && (box.top < cardBox.top - slack || box.bottom > cardBox.bottom + slack))
        ) {
          found.push({
            card: name,
            text,
            why: `outside the card (${Math.round(box.left)}–${Math.round(box.right)} of ${Math.round(outer.left)}–${Math.round(outer.right + scrollable)})`,
          });
          continue;
        }
        if (
          element instanceof HTMLElement &&
          element.scrollWidth > element.clientWidth + slack &&
          element.clientWidth > 0
        ) {
          const style = getComputedStyle(element);
          const full = `${element.getAttribute("title") ?? ""} ${element.getAttribute("aria-label") ?? ""}`;
          const named = style.textOverflow === "ellipsis" && full.includes((element.textContent ?? "").trim());
          if (!named) found.push({ card: name, text, why: `cut (${element.scrollWidth} > ${element.clientWidth})` });
        }
      }
    }
    return found;
  });
}

/** Waits for every card to have drawn, then checks; screenshots the view. */
async function expectNoOverflow(page: Page, view: string): Promise<void> {
  await expect(page.locator("article.dash-card")).toHaveCount(WIDGETS.length, { timeout: 20_000 });
  // A chart is drawn as the reader scrolls to it (widgets/charts/EChart.tsx, `whenVisible`): on a phone
  // most cards start below the fold, so each is brought into view and must then be drawn.
  const cards = page.locator("article.dash-card");
  for (let index = 0; index < WIDGETS.length; index++) {
    await cards.nth(index).scrollIntoViewIfNeeded();
    await expect(cards.nth(index), `${view}: card ${index + 1} drawn once in view`).toHaveAttribute(
      "data-ready",
      "true",
      {
        timeout: 20_000,
      },
    );
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  // The pseudo-locale's words, so the run measures the longer text.
  await expect(
    page.getByRole("article", { name: "Sessions by channel" }).getByRole("columnheader").first(),
  ).toContainText(/[áéíóúñ]/);
  await snap(page, `pseudo-${view}-390`);
  expect(await overflowsIn(page), view).toEqual([]);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth),
    `${view}: the page's width`,
  ).toBeLessThanOrEqual(390);
}

test("the client's views in the pseudo-locale at 390 px: every card's text stays inside its card", async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const { path, id, permalink } = await incidentDashboard(page, "Pseudo locale report", WIDGETS, { language: "en-XA" });
  const phone = { viewport: { width: 390, height: 844 } };

  // The public view, as the server renders it.
  const client = await (await browser.newContext(phone)).newPage();
  await client.goto(path);
  await expectNoOverflow(client, "public");

  // The print view (what the PDF prints), as a client opens it (the PDF's renderer opens it as one too:
  // with the client's labels, which a member's own data requests do not carry).
  await client.goto(`${path}/print`);
  await expect(client.locator("html")).toHaveAttribute("data-print-ready", "true", { timeout: 30_000 });
  await expectNoOverflow(client, "print");

  // The embedded view, opened at its signed address.
  const embed = (await call(page, "POST", `/api/dashboards/${id}/embed`, { days: 7 })) as { data: { url: string } };
  const embedded = await (await browser.newContext(phone)).newPage();
  await embedded.goto(new URL(embed.data.url).pathname + new URL(embed.data.url).search);
  await expectNoOverflow(embedded, "embed");

  // The password-protected public view, once the password is given.
  await call(page, "PUT", `/api/dashboards/${id}`, { category: "new_password", password: "open-sesame" });
  const visitor = await (await browser.newContext(phone)).newPage();
  await visitor.goto(`/dashboards/${permalink}`);
  const prompt = visitor.locator("input[type=password]");
  await prompt.fill("open-sesame");
  await prompt.press("Enter");
  await expectNoOverflow(visitor, "password");
});
