import { createContext } from "react";

/**
 * True while a member's dashboard is rendered by the server and hydrated by the browser (ssr/member-root.tsx).
 * A member's chart otherwise waits for its card to be measured before it has an input (the first
 * ResizeObserver report, before the first paint); the server measures nothing, so its cards draw their
 * charts' boxes, with their inputs, unmeasured, as a public view's do, and the cards the browser hydrates
 * must render the same. Each card reads it once, when it mounts: one added later waits for its measure.
 */
export const ChartsBeforeMeasureContext = createContext(false);
