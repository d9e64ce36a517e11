import type { RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import { buildRoutes, type LoadedScreen } from "./router";

const Screen = () => null;
const Layout = () => null;

/** Every route object under `routes`, depth first. */
function all(routes: RouteObject[]): RouteObject[] {
  return routes.flatMap((route) => [route, ...all(route.children ?? [])]);
}

const named = (routes: RouteObject[], name: string) =>
  all(routes).find((route) => (route.handle as { name?: string } | undefined)?.name === name);

describe("buildRoutes with a loaded screen (a server-rendered page hydrated at its address)", () => {
  const loaded: LoadedScreen = { route: "dashboard.show", layout: "bare", Screen, Layout };

  it.each([
    ["dashboard.show", true],
    ["dashboard.print", false],
    ["dashboards.index", false],
    ["login", false],
  ])("%s carries its component: %s", (name, carries) => {
    const route = named(buildRoutes(loaded), name);
    expect(route).toBeDefined();
    expect(route?.Component === Screen).toBe(carries);
    expect(typeof route?.lazy === "function").toBe(!carries);
  });

  it("the loaded screen's frame carries its layout; the other frames still load theirs", () => {
    const [root] = buildRoutes(loaded);
    const frames = (root.children ?? []).filter((route) => route.children !== undefined);
    expect(frames.filter((frame) => frame.Component === Layout)).toHaveLength(1);
    expect(frames.filter((frame) => typeof frame.lazy === "function")).toHaveLength(frames.length - 1);
    const bare = frames.find((frame) => frame.Component === Layout);
    expect(bare?.children?.some((route) => route.Component === Screen)).toBe(true);
  });

  it("without one, every screen and frame loads on first use", () => {
    const routes = all(buildRoutes());
    expect(routes.some((route) => route.Component === Screen || route.Component === Layout)).toBe(false);
    expect(named(routes, "dashboard.show")?.lazy).toBeTypeOf("function");
  });
});
