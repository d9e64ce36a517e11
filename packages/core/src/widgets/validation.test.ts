import { describe, expect, it } from "vitest";
import type { TWidgetParam } from "../contract/sources";
import { isTypeFormValid, optionsReady, paramDefaults, validateTypeForm } from "./type-form";
import { isWidgetFormValid, type WidgetFormState } from "./widget-form";

const param = (key: string, kind: TWidgetParam["kind"], extra: Partial<TWidgetParam> = {}): TWidgetParam => ({
  key,
  label: key,
  kind,
  required: true,
  ...extra,
});

const ga4: TWidgetParam[] = [param("property", "remote"), param("profile", "remote"), param("metrics", "multiselect")];
// Shaped as Instagram's form is: a post asked only unless the target is the profile.
const socialPosts: TWidgetParam[] = [
  param("target", "select"),
  param("post", "remote", { unless: "target::profile" }),
  param("metrics", "multiselect"),
];
// Shaped as Klaviyo's form is: a conversion metric asked unless the target is a campaign or flow.
const emailTargets: TWidgetParam[] = [
  param("target", "select"),
  param("conversionMetric", "remote", { unless: "target!:campaign|flow" }),
  param("metrics", "multiselect"),
];
const sheets: TWidgetParam[] = [
  param("property", "remote"),
  param("sheet", "remote"),
  param("has_header", "boolean"),
  param("uses_date_range", "boolean", { children: [param("date_column", "select")] }),
  param("metrics", "multiselect"),
];
const nested: TWidgetParam[] = [
  param("reportType", "select", {
    children: [param("campaign", "remote"), param("adGroup", "remote", { required: false })],
  }),
  param("filter", "text", { required: false, children: [param("filterValue", "text")] }),
];

describe("validateTypeForm (docs/product.md §5)", () => {
  it.each<[string, TWidgetParam[], Record<string, unknown>, string[]]>([
    ["GA4 complete", ga4, { property: "p", profile: "v", metrics: ["sessions"] }, []],
    ["GA4 empty", ga4, {}, ["property", "profile", "metrics"]],
    ["empty metric list is not filled", ga4, { property: "p", profile: "v", metrics: [] }, ["metrics"]],
    ["metric list of blanks is not filled", ga4, { property: "p", profile: "v", metrics: [""] }, ["metrics"]],
    ["zero counts as filled", [param("depth", "number")], { depth: 0 }, []],
    [
      "calculated metrics replace metrics",
      ga4,
      { property: "p", profile: "v", calculatedMetrics: [{ id: "c1", name: "x", type: "numeric", expression: "1" }] },
      [],
    ],
    ["empty calculated metrics do not", ga4, { property: "p", profile: "v", calculatedMetrics: [] }, ["metrics"]],
    ["Instagram post not required for profile", socialPosts, { target: "profile", metrics: ["likes"] }, []],
    ["Instagram post required for media", socialPosts, { target: "media", metrics: ["likes"] }, ["post"]],
    [
      "Klaviyo conversion metric for campaign",
      emailTargets,
      { target: "campaign", metrics: ["opens"] },
      ["conversionMetric"],
    ],
    ["Klaviyo conversion metric for flow", emailTargets, { target: "flow", metrics: ["opens"] }, ["conversionMetric"]],
    ["Klaviyo conversion metric not for list", emailTargets, { target: "list", metrics: ["opens"] }, []],
    [
      "booleans need explicit values",
      sheets,
      { property: "p", sheet: "s", metrics: ["m"] },
      ["has_header", "uses_date_range"],
    ],
    [
      "explicit false is filled",
      sheets,
      { property: "p", sheet: "s", has_header: false, uses_date_range: false, metrics: ["m"] },
      [],
    ],
    [
      "boolean string is not explicit",
      sheets,
      { property: "p", sheet: "s", has_header: "false", uses_date_range: false, metrics: ["m"] },
      ["has_header"],
    ],
    [
      "true boolean parent requires its children",
      sheets,
      { property: "p", sheet: "s", has_header: true, uses_date_range: true, metrics: ["m"] },
      ["date_column"],
    ],
    ["children checked when parent filled", nested, { reportType: "ads" }, ["campaign"]],
    ["optional children not required", nested, { reportType: "ads", campaign: "c" }, []],
    ["children ignored when parent empty", nested, {}, ["reportType"]],
    [
      "optional parent filled requires children",
      nested,
      { reportType: "ads", campaign: "c", filter: "x" },
      ["filterValue"],
    ],
    [
      "hidden parent hides its children",
      [param("post", "remote", { unless: "target::profile", children: [param("postMetric", "select")] })],
      { target: "profile", post: "stale" },
      [],
    ],
  ])("%s", (_label, params, form, missing) => {
    expect(validateTypeForm(params, form)).toEqual(missing);
    expect(isTypeFormValid(params, form)).toBe(missing.length === 0);
  });
});

describe("isWidgetFormValid (docs/product.md §5)", () => {
  const interactive = (
    overrides: Partial<Extract<WidgetFormState, { nature: "interactive" }>> = {},
  ): WidgetFormState => ({
    nature: "interactive",
    title: "Sessions",
    width: 2,
    height: 1,
    format: "table",
    instances: [{ prefix: "a", config: "sessions" }],
    ...overrides,
  });
  const passive = (overrides: Partial<Extract<WidgetFormState, { nature: "passive" }>> = {}): WidgetFormState => ({
    nature: "passive",
    title: "Notes",
    width: 2,
    height: 1,
    format: "textCard",
    type: "plain",
    ...overrides,
  });

  it.each<[string, WidgetFormState, boolean]>([
    ["interactive complete", interactive(), true],
    ["interactive without title", interactive({ title: "" }), false],
    ["interactive without width", interactive({ width: undefined }), false],
    ["interactive without height", interactive({ height: null }), false],
    ["interactive without format", interactive({ format: "" }), false],
    [
      "instance without prefix",
      interactive({
        instances: [
          { prefix: "a", config: "x" },
          { prefix: "", config: "x" },
        ],
      }),
      false,
    ],
    ["instance without config", interactive({ instances: [{ prefix: "a" }] }), false],
    ["no instances", interactive({ instances: [] }), false],
    ["passive complete", passive(), true],
    ["passive without type", passive({ type: "" }), false],
    ["passive without title", passive({ title: "" }), false],
    ["passive without format", passive({ format: undefined }), false],
  ])("%s → %s", (_label, form, expected) => {
    expect(isWidgetFormValid(form)).toBe(expected);
  });
});

describe("paramDefaults", () => {
  it("collects the declared defaults, children included, and nothing else", () => {
    const params = [
      param("property", "remote"),
      param("has_header", "boolean", { default: true }),
      param("uses_date_range", "boolean", {
        default: false,
        children: [param("date_column", "select", { default: "a" })],
      }),
      param("metrics", "multiselect"),
    ];
    expect(paramDefaults(params)).toEqual({ has_header: true, uses_date_range: false, date_column: "a" });
    expect(paramDefaults(ga4)).toEqual({});
  });
});

describe("optionsReady (an option list waits for the answers above it)", () => {
  it.each([
    ["the first list needs nothing", ga4, {}, "property", true],
    ["the second waits for the first", ga4, {}, "profile", false],
    ["the second once the first is chosen", ga4, { property: "p1" }, "profile", true],
    ["metrics wait for every required field above", ga4, { property: "p1" }, "metrics", false],
    ["metrics once they are filled", ga4, { property: "p1", profile: "x" }, "metrics", true],
    ["an unanswered yes/no question holds the lists below it", sheets, { property: "f", sheet: "s" }, "metrics", false],
    [
      "a 'No' is an answer",
      sheets,
      { property: "f", sheet: "s", has_header: false, uses_date_range: false },
      "metrics",
      true,
    ],
    [
      "a 'Yes' shows its required children, which then hold the lists below",
      sheets,
      { property: "f", sheet: "s", has_header: true, uses_date_range: true },
      "metrics",
      false,
    ],
    ["a hidden parameter holds nothing", socialPosts, { target: "profile" }, "metrics", true],
    ["a shown one does", socialPosts, { target: "post" }, "metrics", false],
  ] as const)("%s", (_name, params, form, key, expected) => {
    expect(optionsReady(params, form, key)).toBe(expected);
  });
});
