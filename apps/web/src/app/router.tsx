import { REDIRECTS, ROUTES } from "@app/core";
import { createElement } from "react";
import { createBrowserRouter, Navigate, type RouteObject } from "react-router";
import { SCREENS, type ScreenLayout } from "../routes";
import NotFoundScreen from "../routes/not-found";
import { BootLoader } from "./BootLoader";
import { CrashScreen } from "./CrashScreen";
import { AppLayout } from "./layouts/AppLayout";
import { BareLayout } from "./layouts/BareLayout";
import { FocusLayout } from "./layouts/FocusLayout";
import { GuestLayout } from "./layouts/GuestLayout";
import { RootLayout } from "./RootLayout";

const LAYOUTS: Record<ScreenLayout, () => React.JSX.Element> = {
  app: AppLayout,
  guest: GuestLayout,
  focus: FocusLayout,
  bare: BareLayout,
};

/** Every route of the core table, grouped under its frame; fixed redirects; anything else is the 404 page. */
export function buildRoutes(): RouteObject[] {
  const byLayout: Record<ScreenLayout, RouteObject[]> = { app: [], guest: [], focus: [], bare: [] };
  for (const route of ROUTES) {
    const screen = SCREENS[route.name];
    if (!screen) throw new Error(`No screen for route ${route.name}`);
    byLayout[screen.layout].push({
      path: route.path,
      lazy: async () => ({ Component: (await screen.load()).default }),
      handle: { name: route.name },
    });
  }
  byLayout.app.push({ path: "*", element: createElement(NotFoundScreen), handle: { name: "notFound" } });

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
          element: createElement(LAYOUTS[layout]),
          children: byLayout[layout],
        })),
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(buildRoutes());
}
