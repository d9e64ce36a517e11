import fs from "node:fs";
import { expect, test } from "./fixtures";
import { snap, uniqueEmail } from "./support";
import { signUp } from "./support-auth";
import { createDashboard } from "./support-dashboard";

test("an admin shares a dashboard with a password and invites a member, then reads, filters and exports the audit log", async ({
  page,
}) => {
  await signUp(page, "Audrey Admin");
  await createDashboard(page, "Client SEO report");
  await page.getByRole("button", { name: "Sharing" }).click();
  await page.getByRole("menuitem", { name: "Set password" }).click();
  const dialog = page.getByRole("dialog", { name: "Dashboard password" });
  await dialog.getByLabel("Password").fill("hunter2-secret");
  await dialog.getByRole("button", { name: "Save password" }).click();
  await expect(dialog).toBeHidden();

  await page.goto("/company/users");
  await page.getByRole("button", { name: "Invite user" }).click();
  const invite = page.getByRole("dialog", { name: "Invite user" });
  const memberEmail = uniqueEmail("member");
  await invite.getByLabel("Name").fill("Ian Invitee");
  await invite.getByLabel("Email").fill(memberEmail);
  await invite.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("cell", { name: memberEmail })).toBeVisible();

  // Through the menu, as an admin finds it.
  await page.getByRole("link", { name: "Audit log" }).first().click();
  await expect(page).toHaveURL(/\/company\/audit-log$/);
  await expect(page).toHaveTitle("Audit log | Reportz");
  const log = page.getByRole("table", { name: "Audit log" });
  const passwordRow = log.getByRole("row", { name: /set a password on dashboard Client SEO report/ });
  const inviteRow = log.getByRole("row", { name: new RegExp(`invited member ${memberEmail}`) });
  await expect(passwordRow).toContainText("Audrey Admin");
  await expect(inviteRow).toContainText("Audrey Admin");
  await expect(inviteRow).toContainText("Members");
  await expect(log.getByRole("row", { name: /signed in/ }).first()).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, "audit-log-1280");

  // Only sharing changes: the invitation leaves the list, the password stays.
  await page.getByRole("combobox", { name: "What" }).click();
  await page.getByRole("option", { name: "All: Dashboard sharing" }).click();
  await expect(inviteRow).toBeHidden();
  await expect(passwordRow).toBeVisible();

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Export CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = fs.readFileSync(String(await download.path()), "utf8");
  const lines = csv.trim().split("\r\n");
  expect(lines[0]).toBe('"Time (UTC)","Who","E-mail","Action","What","Target","Address","Browser"');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain('"Audrey Admin"');
  expect(lines[1]).toContain('"dashboard.password_set","set a password on dashboard Client SEO report"');
  expect(csv).not.toContain("hunter2-secret");

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole("article", { name: /set a password on dashboard Client SEO report/ })).toBeVisible();
  await snap(page, "audit-log-390");
});
