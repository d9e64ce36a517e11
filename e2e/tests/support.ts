import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";

export const SCREENSHOTS = path.join(import.meta.dirname, "..", "screenshots");

/** Saves a full-page screenshot to e2e/screenshots so a person can look at every screen. */
export async function snap(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  // Charts draw as they come near the viewport; the full-page picture shows them all, so pass over the
  // page first as a reader scrolling down would, and come back to where the test was.
  await page.evaluate(async () => {
    const busy = () => document.querySelectorAll("article.dash-card[aria-busy='true']").length > 0;
    if (!busy()) return;
    const { scrollX, scrollY } = window;
    for (let y = 0; y < document.documentElement.scrollHeight; y += window.innerHeight) {
      window.scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (let waited = 0; busy() && waited < 3000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    window.scrollTo(scrollX, scrollY);
  });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/**
 * The dashboard's PDF as the reader of `page` gets it: the page's PDF button has the server render it
 * (the print view), a second click downloads it. Answers its text (pdftotext -layout, white space folded
 * to one space) and keeps its first page as `screenshots/<picture>-1.png` for a person to look at.
 */
export async function downloadDashboardPdf(page: Page, picture: string): Promise<string> {
  const pdf = page.locator("button.dash-pdf");
  await pdf.click();
  await expect(pdf).toHaveAttribute("data-state", "ready", { timeout: 60_000 });
  const [download] = await Promise.all([page.waitForEvent("download"), pdf.click()]);
  const file = await download.path();
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  execFileSync("pdftoppm", ["-png", "-r", "60", "-f", "1", "-l", "1", file, path.join(SCREENSHOTS, picture)]);
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
}

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.com`;
}

/**
 * The newest invitation link a server wrote to its outbox for this address (the main server's, or the
 * payments server's in `$E2E_DATA_DIR-payments`: addresses are unique, so both are searched).
 */
export async function invitationLink(email: string): Promise<string> {
  const dirs = [String(process.env.E2E_DATA_DIR), `${process.env.E2E_DATA_DIR}-payments`].map((dir) =>
    path.join(dir, "outbox"),
  );
  let link: string | undefined;
  await expect
    .poll(() => {
      const files = dirs.flatMap((dir) =>
        fs.existsSync(dir)
          ? fs
              .readdirSync(dir)
              .filter((f) => f.includes(email.replace(/[^a-z0-9@._-]/gi, "_")))
              .map((f) => path.join(dir, f))
          : [],
      );
      const text = files.map((f) => fs.readFileSync(f, "utf8")).join("\n");
      const decoded = text
        .replace(/=\r?\n/g, "")
        .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
      link = /https?:\/\/[^\s"<]+\/password\/set\/[A-Za-z0-9_-]+/.exec(decoded)?.[0];
      return link;
    })
    .toBeTruthy();
  return String(link);
}

/**
 * The provider fakes of playwright.config.ts (next door to the server): for switches a user flips at the
 * provider, and for a connector whose address the user types (a shop's site).
 */
export const FAKES_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT) + 1}`;

/**
 * An invited member sets a password from the invitation link, and a company that requires two-factor
 * sign-in holds them at its set-up page.
 */
export async function acceptInviteHeldAtSetup(member: Page, link: string): Promise<void> {
  await member.goto(new URL(link).pathname);
  await member.getByLabel("Password", { exact: true }).fill("member-pass-1");
  await member.getByLabel("Confirm password").fill("member-pass-1");
  await member.getByRole("button", { name: "Set password" }).click();
  await expect(member).toHaveURL(/\/two-factor\/setup$/);
  await expect(member.getByText("Your company requires two-factor sign-in")).toBeVisible();
}

/** Every day from `start` to `end` (yyyy-mm-dd, both included): the days a widget's range adds up. */
export function daysFrom(start: string, end: string): string[] {
  const days: string[] = [];
  for (let at = Date.parse(`${start}T00:00:00Z`); at <= Date.parse(`${end}T00:00:00Z`); at += 86_400_000) {
    days.push(new Date(at).toISOString().slice(0, 10));
  }
  return days;
}

/**
 * Waits until a provider's sign-in popup has closed itself. Playwright's "close" event is not kept: once
 * it has fired, `waitForEvent("close")` waits for a second one that never comes, and a fake provider
 * consents at once, so the popup may be gone before the test listens (it failed that way now and then).
 * The page's closed state stays true, so the test reads that.
 */
export async function closesItself(popup: Page | Promise<Page>, timeout = 15_000): Promise<void> {
  const window = await popup;
  await expect.poll(() => window.isClosed(), { timeout, message: "the popup closes itself" }).toBe(true);
}

/**
 * Connects a connector from the sources page through its provider's consent popup, which the fake
 * answers at once and our callback page closes.
 */
export async function connectThroughPopup(page: Page, name: string): Promise<void> {
  const popup = page.waitForEvent("popup");
  await page.getByRole("button", { name: `Connect ${name}` }).click();
  await closesItself(popup);
}

/**
 * Records what a page hears and asks of the realtime channel (its socket's frames, its channel
 * authorisations, and the requests matching `also`), with times from now. `print` writes it to the
 * test's output: for a test whose live update never came, what the page was told and when.
 */
export function recordRealtime(page: Page, also: RegExp) {
  const started = Date.now();
  const lines: string[] = [];
  const note = (line: string) => lines.push(`${((Date.now() - started) / 1000).toFixed(2)} s ${line}`);
  page.on("request", (request) => {
    if (/\/broadcasting\/auth$/.test(request.url()) || also.test(request.url()))
      note(`> ${request.method()} ${request.url()}`);
  });
  page.on("response", (response) => {
    if (/\/broadcasting\/auth$/.test(response.url()) || also.test(response.url()))
      note(`< ${response.status()} ${response.url()}`);
  });
  page.on("requestfailed", (request) => note(`failed ${request.url()} ${request.failure()?.errorText ?? ""}`));
  page.on("websocket", (socket) => {
    note(`socket ${socket.url()}`);
    socket.on("framesent", (frame) => note(`socket> ${String(frame.payload).slice(0, 200)}`));
    socket.on("framereceived", (frame) => note(`socket< ${String(frame.payload).slice(0, 200)}`));
    socket.on("close", () => note("socket closed"));
  });
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") note(`console ${message.type()} ${message.text()}`);
  });
  return { print: () => console.log(`Realtime of the page:\n${lines.join("\n")}`) };
}
