import type { BoxProps } from "@mantine/core";
import { lazy, Suspense } from "react";

const SafeHtml = lazy(async () => ({ default: (await import("./SafeHtml")).SafeHtml }));

/**
 * SafeHtml whose sanitiser (DOMPurify, ~11 KB gzip) loads with the first HTML shown: dashboards
 * without text cards or a footer, public ones above all, never download it.
 * Until it has loaded, a hidden `data-chunk-loading` marker stands in its place: the print view waits
 * for every such marker to go before it signals ready (routes/dashboard-print.tsx), or a text card's PDF
 * could be printed with an empty body.
 */
export function LazySafeHtml(props: BoxProps & { html: string }) {
  return (
    <Suspense fallback={<span hidden data-chunk-loading="true" />}>
      <SafeHtml {...props} />
    </Suspense>
  );
}
