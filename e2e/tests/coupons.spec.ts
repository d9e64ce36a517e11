import { execFileSync } from "node:child_process";
import path from "node:path";
import { expect, test } from "./fixtures";
import { snap } from "./support";
import { signUp } from "./support-auth";

const SERVER = path.join(import.meta.dirname, "..", "..", "apps", "server");

/** The operator's CLI (docs/operations.md "Coupons") on the running server's database. */
function coupons(...args: string[]): string {
  return execFileSync("npx", ["tsx", path.join(SERVER, "src", "seed", "coupons.ts"), ...args], {
    env: { ...process.env, NODE_ENV: "test", DATA_DIR: String(process.env.E2E_DATA_DIR), LOG_LEVEL: "warn" },
    encoding: "utf8",
  });
}

test("coupons: the register page checks its codes, and an admin applies a code on the subscription page", async ({
  page,
}) => {
  const suffix = Date.now().toString(36).toUpperCase();
  const bonus = `MORE${suffix}`;
  const percent = `SPRING${suffix}`;
  const percentToo = `SUMMER${suffix}`;
  coupons("add", bonus, "dashboards.bonus", "3", "--name", "Three more dashboards");
  coupons("add", percent, "price.discount", "20", "--name", "Spring sale");
  coupons("add", percentToo, "price.discount", "10");

  // The registration link's codes are looked up as the page opens.
  await page.goto(`/register?coupons=${percent},NOPE${suffix}`);
  await expect(page.getByText(`${percent} · 20% off`)).toBeVisible();
  await expect(page.getByText(`NOPE${suffix}`)).toBeVisible();
  await expect(page.getByText("Code / Coupon not valid")).toBeVisible();
  await snap(page, "coupons-register");

  await signUp(page, "Cora Coupon");
  await page.goto("/company/subscription");
  await expect(page.getByText("0 of 25 used", { exact: true })).toBeVisible();
  await expect(page.getByText("No coupons applied yet.")).toBeVisible();

  const input = page.getByLabel("Coupon code");
  const applyButton = page.getByRole("button", { name: "Apply coupon" });
  await input.fill(bonus.toLowerCase());
  await applyButton.click();
  await expect(
    page.getByRole("alert").filter({ hasText: `Code / Coupon ${bonus.toLowerCase()} activated successfully` }),
  ).toBeVisible();
  // The bonus shows at once, without a reload.
  await expect(page.getByText("0 of 25 used (+ 3 bonus)")).toBeVisible();
  const applied = page.getByRole("table", { name: "Applied coupons" });
  await expect(applied.getByRole("row", { name: new RegExp(`${bonus}.*\\+3 bonus dashboards`) })).toBeVisible();

  // A code the company has cannot be applied again (any case).
  await input.fill(` ${bonus} `);
  await expect(page.getByText("This code is already applied.")).toBeVisible();
  await expect(applyButton).toBeDisabled();

  await input.fill(percent);
  await applyButton.click();
  await expect(page.getByText(`Code / Coupon ${percent} activated successfully`)).toBeVisible();
  await expect(applied.getByRole("row", { name: new RegExp(`${percent}.*Spring sale.*20% off`) })).toBeVisible();

  // A second percent discount does not stack; an unknown code is invalid.
  await input.fill(percentToo);
  await applyButton.click();
  await expect(page.getByText("Code / Coupon not stackable with other code(s) / coupon(s)")).toBeVisible();
  await snap(page, "coupons-subscription");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await snap(page, "coupons-subscription-phone");
  await page.setViewportSize({ width: 1280, height: 800 });
  await input.fill("NO-SUCH-CODE");
  await applyButton.click();
  await expect(page.getByText("Code / Coupon NO-SUCH-CODE is invalid")).toBeVisible();

  // The operator sees the redemptions counted.
  expect(coupons("list")).toMatch(new RegExp(`${bonus}\\tdashboards.bonus\\t3\\tThree more dashboards\\t1 used`));
});
