import { LANGUAGES, type TWidgetParam } from "@app/core";
import {
  LABEL_CATALOGUES,
  labelCatalogue,
  translateLabel,
  translateWidgetDataLabels,
  typedLabels,
} from "@app/core/i18n/labels";
import { describe, expect, it } from "vitest";
import { CONNECTORS } from ".";

/** The metric and dimension labels a widget type's form declares, its nested parameters' included. */
function declaredLabels(params: readonly TWidgetParam[]): string[] {
  return params.flatMap((param) => [
    ...(/metric|dimension/i.test(param.key) ? (param.options ?? []).map((option) => option.label) : []),
    ...declaredLabels(param.children ?? []),
  ]);
}

/** Every label any connector declares, with the connectors that declare it (for the failure message). */
function everyDeclaredLabel(): Map<string, string[]> {
  const labels = new Map<string, string[]>();
  for (const connector of CONNECTORS) {
    for (const type of connector.widgetTypes) {
      for (const label of declaredLabels(type.params)) {
        labels.set(label, [...new Set([...(labels.get(label) ?? []), connector.key])]);
      }
    }
  }
  return labels;
}

describe("metric and dimension labels in the client's language", () => {
  const declared = everyDeclaredLabel();

  it("the connectors declare labels at all (the walk finds their metrics and dimensions)", () => {
    expect(declared.size).toBeGreaterThan(100);
    expect(declared.get("Sessions")?.length).toBeGreaterThan(0);
  });

  it.each(LANGUAGES.filter((language) => language !== "en"))(
    "every label a connector declares has a translation in %s",
    (language) => {
      const catalogue = LABEL_CATALOGUES[language as keyof typeof LABEL_CATALOGUES];
      const missing = [...declared]
        .filter(([label]) => !catalogue[label]?.trim())
        .map(([label, by]) => `${label} (${by.join(", ")})`);
      expect(missing, `labels without a ${language} translation`).toEqual([]);
    },
  );

  it("every language's label file has the same labels (none left over after a connector dropped one)", () => {
    const german = Object.keys(LABEL_CATALOGUES.de).sort();
    for (const catalogue of Object.values(LABEL_CATALOGUES)) expect(Object.keys(catalogue).sort()).toEqual(german);
  });

  it.each<[string, string, string]>([
    ["de", "Sessions", "Sitzungen"],
    ["fr", "Bounce Rate", "Taux de rebond"],
    ["sl", "Clicks", "Kliki"],
    ["en", "Sessions", "Sessions"],
    ["de", "A column from a sheet", "A column from a sheet"],
  ])("in %s, %s reads %s", (language, label, expected) => {
    expect(translateLabel(label, labelCatalogue(language))).toBe(expected);
  });

  it("a name the owner typed (a calculated metric) stays as typed even when it is a known label", () => {
    const instances = [{ inputs: { calculatedMetrics: [{ name: "Sessions" }] } }];
    const table = {
      dimension: { key: "channel", label: "Channel", kind: "string" as const },
      metrics: [
        { key: "a.sessions", label: "Sessions", format: "number" as const },
        { key: "calc", label: "Sessions", format: "number" as const },
        { key: "a.clicks", label: "Clicks", format: "number" as const },
      ],
      rows: [],
      totals: [],
    };
    const typed = typedLabels(instances);
    const data = translateWidgetDataLabels({ current: table, previous: null }, labelCatalogue("de"), typed);
    expect(data.current.dimension?.label).toBe("Kanal");
    // The typed name wins over the catalogue: every column of that name is said as typed.
    expect(data.current.metrics.map((metric) => metric.label)).toEqual(["Sessions", "Sessions", "Klicks"]);
  });
});
