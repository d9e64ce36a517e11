import type { BoxProps } from "@mantine/core";
import { lazy, Suspense } from "react";

const SafeHtml = lazy(async () => ({ default: (await import("./SafeHtml")).SafeHtml }));

/**
 * SafeHtml whose sanitiser (DOMPurify, ~11 KB gzip) loads with the first HTML shown: dashboards
 * without text cards or a footer, public ones above all, never download it.
 */
export function LazySafeHtml(props: BoxProps & { html: string }) {
  return (
    <Suspense fallback={null}>
      <SafeHtml {...props} />
    </Suspense>
  );
}
