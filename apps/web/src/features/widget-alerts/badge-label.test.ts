import { describe, expect, it } from "vitest";
import { badgeLabel } from "./components/WidgetAlertBadge";

describe("badgeLabel", () => {
  it.each([
    [["Sessions"], "1 alert firing on Sessions"],
    [["Sessions", "Sessions"], "2 alerts firing on Sessions"],
    [["Sessions", "Users"], "2 alerts firing on Sessions and Users"],
    [["Sessions", "Users", "Bounce rate"], "3 alerts firing on Sessions, Users and Bounce rate"],
  ])("%j → %s", (labels, expected) => {
    expect(badgeLabel(labels.map((metric_label) => ({ metric_label })))).toBe(expected);
  });
});
