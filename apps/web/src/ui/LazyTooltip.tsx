import type { TooltipProps } from "@mantine/core";
import { lazy, Suspense } from "react";

// Mantine's Tooltip brings floating-ui (~15 KB gzip); widgets only show one on an error, so it loads then.
const Tooltip = lazy(async () => ({ default: (await import("./tooltip-impl")).Tooltip }));

/** Mantine's Tooltip, loaded with the first one shown; until then its target shows without it. */
export function LazyTooltip(props: TooltipProps) {
  return (
    <Suspense fallback={props.children}>
      <Tooltip {...props} />
    </Suspense>
  );
}
