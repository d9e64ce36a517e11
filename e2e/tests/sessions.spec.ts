import { type Browser, type BrowserContext, expect, type Page, test } from "./fixtures";
import { snap } from "./support";
import { logIn, signUp } from "./support-auth";

const FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
// A long, real-world user agent (Samsung Internet on a Galaxy tablet): the list must not overflow on a phone.
const SAMSUNG_TABLET =
  "Mozilla/5.0 (Linux; Android 14; SM-X910 Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.6261.105 Safari/537.36 Instagram 320.0.0.34.109 Android (34/14; 480dpi; 1848x2960; samsung; SM-X910; gts9ultra; qcom; en_GB; 567032385)";

async function openProfile(page: Page): Promise<void> {
  await page.getByRole("button", { name: "User menu" }).click();
  await page.getByRole("menuitem", { name: "Profile" }).click();
  await expect(page.getByRole("heading", { name: "Signed-in sessions" })).toBeVisible();
}

/** A new account signed in on `page` and, as Firefox on Linux, in a second browser: that browser and its page. */
async function signedInElsewhere(page: Page, browser: Browser): Promise<{ firefox: BrowserContext; other: Page }> {
  const email = await signUp(page);
  const firefox = await browser.newContext({ userAgent: FIREFOX_LINUX });
  const other = await firefox.newPage();
  await logIn(other, email);
  return { firefox, other };
}

/** Signs the Firefox session out from `page`'s profile, which then lists this device alone. */
async function signOutFirefox(page: Page): Promise<void> {
  await openProfile(page);
  const rows = page.getByTestId("signed-in-session");
  await rows
    .filter({ hasText: "Firefox 133 on Linux" })
    .getByRole("button", { name: /^Sign out/ })
    .click();
  await expect(rows).toHaveCount(1);
}

test("the profile lists the user's signed-in sessions; signing one out there signs that browser out", async ({
  page,
  browser,
}) => {
  const email = await signUp(page);
  const firefox = await browser.newContext({ userAgent: FIREFOX_LINUX });
  const tablet = await browser.newContext({ userAgent: SAMSUNG_TABLET });
  try {
    const other = await firefox.newPage();
    await logIn(other, email);
    const third = await tablet.newPage();
    await logIn(third, email);

    await openProfile(page);
    const rows = page.getByTestId("signed-in-session");
    await expect(rows).toHaveCount(3);
    // This browser (headless Chromium on Linux) is marked; the others are named from their user agents.
    const mine = rows.filter({ hasText: "This device" });
    await expect(rows.first()).toContainText("This device");
    await expect(mine).toHaveCount(1);
    await expect(mine).toContainText(/Chrom\w* \d+ on Linux/);
    await expect(mine.getByRole("button", { name: /^Sign out/ })).toHaveCount(0);
    await expect(rows.filter({ hasText: "Firefox 133 on Linux" })).toHaveCount(1);
    await expect(rows.filter({ hasText: "Samsung Internet for Android 26 on Android 14" })).toHaveCount(1);
    await expect(rows.first()).toContainText("Last seen");

    await page.setViewportSize({ width: 1280, height: 900 });
    await snap(page, "sessions-1280");
    await page.setViewportSize({ width: 390, height: 844 });
    // Nothing sticks out sideways on a phone, once the layout has settled (the side menu slides away).
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth))
      .toBeLessThanOrEqual(0);
    await snap(page, "sessions-390");
    await page.setViewportSize({ width: 1280, height: 900 });

    // Sign the Firefox session out: gone from the list, and Firefox is sent to the sign-in page.
    await rows
      .filter({ hasText: "Firefox 133 on Linux" })
      .getByRole("button", { name: /^Sign out/ })
      .click();
    await expect(rows).toHaveCount(2);
    await expect(page.getByText("Firefox 133 on Linux")).toHaveCount(0);
    // Its open page goes to the sign-in page by itself (docs/product.md §2, signed-in sessions): the server ends
    // its realtime socket, the page asks for its session, the 401 reloads it (§8) and the reload finds no session.
    // That reload is a navigation of its own: the test waits for it, a goto of ours would race it.
    await expect(other).toHaveURL(/\/login/);
    // Once there, the session is gone for good: the next request is sent to the sign-in page too.
    await other.goto("/dashboards");
    await expect(other).toHaveURL(/\/login/);

    // "Sign out all other sessions" ends the tablet's too, and keeps this one.
    await page.getByRole("button", { name: "Sign out all other sessions" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Sign out others" }).click();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("This device");
    await expect(page.getByRole("button", { name: "Sign out all other sessions" })).toBeDisabled();
    await expect(third).toHaveURL(/\/login/);
    await third.goto("/dashboards");
    await expect(third).toHaveURL(/\/login/);
    await page.reload();
    await expect(page.getByRole("heading", { name: "Signed-in sessions" })).toBeVisible();
  } finally {
    await firefox.close();
    await tablet.close();
  }
});

test("a page open in the browser that is signed out elsewhere goes to the sign-in page without a click", async ({
  page,
  browser,
}) => {
  const { firefox, other } = await signedInElsewhere(page, browser);
  try {
    await other.goto("/dashboards");
    await signOutFirefox(page);
    // The server ends that page's realtime socket; the page checks its session and finds it gone.
    await expect(other).toHaveURL(/\/login/, { timeout: 10_000 });
  } finally {
    await firefox.close();
  }
});

test("a page whose realtime connection is made only after its session ended elsewhere goes to the sign-in page too", async ({
  page,
  browser,
}) => {
  const { firefox, other } = await signedInElsewhere(page, browser);
  try {
    // The page's realtime connection (Socket.IO starts by polling over HTTP) is held back until the session is ended.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await other.route("**/socket.io/**", async (route) => {
      await held;
      await route.continue();
    });
    await other.goto("/dashboards");
    await signOutFirefox(page);
    await expect(other).toHaveURL(/\/dashboards$/);
    // The handshake is refused (no session); the page asks for its session and finds it gone.
    release();
    await expect(other).toHaveURL(/\/login/, { timeout: 10_000 });
  } finally {
    await firefox.close();
  }
});
