import type { TooltipProps } from "@mantine/core";
import { lazy } from "react";
import { LazyPart } from "./LazyPart";

// Mantine's Tooltip brings floating-ui (~15 KB gzip); widgets only show one on an error, so it loads then.
const Tooltip = lazy(async () => ({ default: (await import("./tooltip-impl")).Tooltip }));

/**
 * Mantine's Tooltip, loaded with the first one shown; until then its target shows without it. Its target
 * may be a control (the PDF button): a lazy part the server-rendered page waits for (ui/LazyPart.tsx).
 */
export function LazyTooltip(props: TooltipProps) {
  return (
    <LazyPart fallback={props.children}>
      <Tooltip {...props} />
    </LazyPart>
  );
}
