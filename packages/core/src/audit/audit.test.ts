import { describe, expect, it } from "vitest";
import { actionsOfFilter, allowedDetails, describeAuditEvent } from "./actions";
import { csvCell, csvLine } from "./csv";

describe("audit details keep only their action's listed keys", () => {
  it.each<[string, Parameters<typeof allowedDetails>, Record<string, unknown>]>([
    ["a listed key", ["member.invited", { role: "user" }], { role: "user" }],
    ["a secret beside it is dropped", ["member.invited", { role: "user", password: "hunter2" }], { role: "user" }],
    ["an action that keeps nothing", ["dashboard.password_set", { password: "hunter2-secret" }], {}],
    [
      "a token under a listed-looking name",
      ["source.connected", { connector: "ga", token: "tok" }],
      { connector: "ga" },
    ],
    ["objects are dropped", ["source.connected", { connector: { token: "tok" } }], {}],
    [
      "numbers and booleans stay",
      ["billing.plan_changed", { dashboards: 25, interval: "month" }],
      { dashboards: 25, interval: "month" },
    ],
    ["long text is cut", ["auth.sign_in_failed", { email: "x".repeat(300) }], { email: "x".repeat(200) }],
    ["no details", ["auth.sign_in", undefined], {}],
  ])("%s", (_name, args, expected) => {
    expect(allowedDetails(...args)).toEqual(expected);
  });
});

describe("audit filters: an action or a group", () => {
  it.each<[string, string[]]>([
    ["member.invited", ["member.invited"]],
    ["members", ["member.invited", "member.role_changed", "member.removed"]],
    ["sign-ins", ["auth.sign_in", "auth.sign_in_failed"]],
    ["nothing.like.this", []],
  ])("%s", (filter, expected) => {
    expect(actionsOfFilter(filter)).toEqual(expected);
  });
});

describe("audit events in plain words", () => {
  it.each<[Parameters<typeof describeAuditEvent>, string]>([
    [["member.invited", "mia@example.com", { role: "user" }], "invited member mia@example.com (role: user)"],
    [["dashboard.password_set", "Acme SEO", {}], "set a password on dashboard Acme SEO"],
    [["auth.sign_in", null, {}], "signed in"],
    [["unknown.action", null, {}], "unknown.action"],
  ])("%j", (args, expected) => {
    expect(describeAuditEvent(...args)).toBe(expected);
  });
});

describe("CSV cells: quoted, and never a formula", () => {
  it.each<[string | number | null, string]>([
    ["plain", '"plain"'],
    ['say "hi"', '"say ""hi"""'],
    ["a,b\nc", '"a,b\nc"'],
    ['=HYPERLINK("http://x")', '"\'=HYPERLINK(""http://x"")"'],
    ["+1", '"\'+1"'],
    ["-2+3", '"\'-2+3"'],
    ["@SUM(A1)", '"\'@SUM(A1)"'],
    ["\t=1", '"\'\t=1"'],
    [42, '"42"'],
    [null, '""'],
  ])("%j", (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });
  it("a line ends with CRLF", () => {
    expect(csvLine(["a", "=b"])).toBe('"a","\'=b"\r\n');
  });
});
