import { REDIRECTS, ROUTES } from "@app/core";
import { type ComponentType, createElement } from "react";
import { createBrowserRouter, Navigate, type RouteObject } from "react-router";
import { SCREENS, type ScreenLayout } from "../routes";
import { BootLoader } from "./BootLoader";
import { CrashScreen } from "./CrashScreen";
import { RootLayout } from "./RootLayout";

/**
 * Each frame is its own chunk, loaded with the screen it frames (the router loads both at once): the
 * public dashboard never downloads the app shell's navigation, menus and messages.
 */
const LAYOUTS: Record<ScreenLayout, () => Promise<() => React.JSX.Element>> = {
  app: async () => (await import("./layouts/AppLayout")).AppLayout,
  guest: async () => (await import("./layouts/GuestLayout")).GuestLayout,
  focus: async () => (await import("./layouts/FocusLayout")).FocusLayout,
  bare: async () => (await import("./layouts/BareLayout")).BareLayout,
};

/**
 * One screen and its frame already loaded: their routes carry the components instead of loading them,
 * so a router created at that screen's address renders it at once (a page the server rendered is
 * hydrated by the same tree: ssr/member-hydrate.tsx).
 */
export interface LoadedScreen {
  route: string;
  layout: ScreenLayout;
  Screen: ComponentType;
  Layout: ComponentType;
  /** What the screen needs loaded before a server-rendered page of it is hydrated (its module says). */
  prepareHydration?: () => Promise<unknown>;
}

/** The screen of route `name` and its frame, loaded. */
export async function loadScreen(name: string): Promise<LoadedScreen> {
  const screen = SCREENS[name];
  if (!screen) throw new Error(`No screen for route ${name}`);
  const [module, Layout] = await Promise.all([screen.load(), LAYOUTS[screen.layout]()]);
  return {
    route: name,
    layout: screen.layout,
    Screen: module.default,
    Layout,
    prepareHydration: module.prepareHydration,
  };
}

/**
 * Every route of the core table, grouped under its frame; fixed redirects; anything else is the 404 page.
 * With `loaded`, that screen and its frame are not loaded again.
 */
export function buildRoutes(loaded?: LoadedScreen): RouteObject[] {
  const byLayout: Record<ScreenLayout, RouteObject[]> = { app: [], guest: [], focus: [], bare: [] };
  for (const route of ROUTES) {
    const screen = SCREENS[route.name];
    if (!screen) throw new Error(`No screen for route ${route.name}`);
    byLayout[screen.layout].push({
      path: route.path,
      ...(loaded?.route === route.name
        ? { Component: loaded.Screen }
        : { lazy: async () => ({ Component: (await screen.load()).default }) }),
      handle: { name: route.name },
    });
  }
  byLayout.app.push({
    path: "*",
    lazy: async () => ({ Component: (await SCREENS.notFound.load()).default }),
    handle: { name: "notFound" },
  });

  const redirects: RouteObject[] = Object.entries(REDIRECTS).map(([from, to]) => ({
    path: from,
    element: createElement(Navigate, { to, replace: true }),
  }));

  return [
    {
      element: createElement(RootLayout),
      errorElement: createElement(CrashScreen),
      hydrateFallbackElement: createElement(BootLoader),
      children: [
        ...redirects,
        ...(Object.keys(byLayout) as ScreenLayout[]).map((layout) => ({
          ...(loaded?.layout === layout
            ? { Component: loaded.Layout }
            : { lazy: async () => ({ Component: await LAYOUTS[layout]() }) }),
          children: byLayout[layout],
        })),
      ],
    },
  ];
}

export function createAppRouter(loaded?: LoadedScreen) {
  return createBrowserRouter(buildRoutes(loaded));
}

export type AppRouter = ReturnType<typeof createAppRouter>;
