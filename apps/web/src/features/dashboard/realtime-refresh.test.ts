import type { TWidget } from "@app/core";
import { describe, expect, it } from "vitest";
import { widgetsToRefresh } from "./realtime-refresh";

const widget = (id: string, nature: "interactive" | "passive", realTime: boolean) =>
  ({ id, nature, realTime }) as unknown as TWidget;

describe("the realtime view's clock", () => {
  const widgets = [widget("a", "interactive", false), widget("b", "interactive", true), widget("c", "passive", true)];

  it("refreshes every data widget for a viewer without a channel", () => {
    expect(widgetsToRefresh(widgets, true).map((w) => w.id)).toEqual(["a", "b"]);
  });

  it("refreshes only realTime widgets for a member (source changes arrive as events)", () => {
    expect(widgetsToRefresh(widgets, false).map((w) => w.id)).toEqual(["b"]);
  });
});
