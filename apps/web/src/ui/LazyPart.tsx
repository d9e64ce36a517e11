import { createContext, type ReactNode, Suspense, useContext, useLayoutEffect, useState } from "react";

/**
 * What the server-rendered public view's hydration (ssr/hydrate.tsx) is told about its lazy parts:
 * `waitFor` is called once a part's boundary is on the page and its content not yet adopted; the
 * function it returns is called when the content has committed (or the part is gone).
 */
export interface LazyPartTracker {
  waitFor: () => () => void;
}

/** Given only while a server-rendered page is hydrated (ssr/public-tree.tsx); null everywhere else. */
export const LazyPartTrackerContext = createContext<LazyPartTracker | null>(null);

interface Part {
  committed: boolean;
  done?: () => void;
}

/**
 * A `Suspense` boundary whose content may hold controls (buttons, pickers). When React hydrates a
 * server-rendered page it adopts a boundary's content in a commit of its own, after the page around it
 * (and only once the content's lazy code has loaded): until then a click on a control inside goes
 * unanswered. This boundary tells the hydration when its content has committed, so the page is said
 * live (`html[data-app="live"]`, ssr/boot.ts) only once every such control answers. Outside a
 * hydration it is a plain `Suspense`.
 *
 * The signal is React's own commit (a layout effect of a component rendered with the content, no node
 * of its own), not a mark on the page's nodes. An attribute written on a server-rendered node before
 * React has adopted it is one the tree does not render, which React's hydration reports as a mismatch;
 * written after, it would be safe, but a part has no node to carry it (its content is anything), and a
 * wrapper node would move what the stylesheet keys on (the header's phone layout: `> :first-child`).
 */
export function LazyPart({ fallback, children }: { fallback?: ReactNode; children?: ReactNode }) {
  const tracker = useContext(LazyPartTrackerContext);
  const [part] = useState<Part>(() => ({ committed: false }));
  // Runs with the commit that puts the boundary on the page. A content committed with it (no
  // hydration: the content's effects run first) is not waited for.
  useLayoutEffect(() => {
    if (!tracker || part.committed) return;
    const done = tracker.waitFor();
    part.done = done;
    return done;
  }, [tracker, part]);
  return (
    <Suspense fallback={fallback}>
      {children}
      <Committed part={part} />
    </Suspense>
  );
}

/** Rendered with the part's content (no node of its own): its effect runs when that content commits. */
function Committed({ part }: { part: Part }) {
  useLayoutEffect(() => {
    part.committed = true;
    part.done?.();
  }, [part]);
  return null;
}
