import { Box } from "@mantine/core";
import type { MouseEventHandler } from "react";
import { Outlet } from "react-router";

/**
 * No chrome at all (print view, public dashboards). `onClickCapture` sees every click React dispatches
 * on the screen (the server-rendered public view learns from it which clicks React answered: ssr/hydrate.tsx).
 */
export function BareLayout({ onClickCapture }: { onClickCapture?: MouseEventHandler<HTMLDivElement> } = {}) {
  return (
    <Box p="md" bg="white" mih="100vh" onClickCapture={onClickCapture}>
      <Outlet />
    </Box>
  );
}
