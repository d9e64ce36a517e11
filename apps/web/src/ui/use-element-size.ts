import { startTransition, useCallback, useLayoutEffect, useRef, useState } from "react";

interface Size {
  width: number;
  height: number;
}

/**
 * An element's border-box size, as Mantine's `useElementSize` measures it (a ResizeObserver, read in
 * the next animation frame), with the update in a transition: the first measure of every widget card
 * lands in the same frame, and as one ordinary update React re-rendered them all in one long task; a
 * transition is rendered in slices that let a phone's browser draw and answer input between them
 * (docs/decisions.md, "Public view: shorter tasks on a phone"). A size that did not change renders nothing.
 */
export function useElementSize<T extends HTMLElement = HTMLDivElement>(atMount = false) {
  const [size, setSize] = useState<Size>({ width: 0, height: 0 });
  const observer = useRef<ResizeObserver | null>(null);
  const frame = useRef(0);
  const element = useRef<T | null>(null);
  // `atMount` (true): the first size is read in the commit that mounts the element (the layout the browser
  // makes before its first paint anyway), and React renders it before that paint, in the same task. A
  // member's widget card (WidgetCard.tsx): its chart is mounted only once its card is measured, and asks
  // for its kept drawing in the commit that mounts it; measured through the observer's frame and a
  // transition, that render of every card waited behind the page's other background renders, 0.1–0.9 s
  // after the answers were in (bench/README.md (b); docs/decisions.md, "The owner's dashboard: cards
  // measured as they mount").
  useLayoutEffect(() => {
    const box = atMount && element.current?.getBoundingClientRect();
    if (box) setSize({ width: box.width, height: box.height });
  }, [atMount]);
  const ref = useCallback((node: T | null) => {
    element.current = node;
    observer.current?.disconnect();
    observer.current = null;
    cancelAnimationFrame(frame.current);
    if (!node) return;
    observer.current = new ResizeObserver((entries) => {
      const entry = entries[0];
      if (!entry) return;
      cancelAnimationFrame(frame.current);
      frame.current = requestAnimationFrame(() => {
        const box = entry.borderBoxSize?.[0] ?? entry.contentBoxSize?.[0];
        const width = box ? box.inlineSize : entry.contentRect.width;
        const height = box ? box.blockSize : entry.contentRect.height;
        startTransition(() =>
          setSize((current) => (current.width === width && current.height === height ? current : { width, height })),
        );
      });
    });
    observer.current.observe(node);
  }, []);
  return { ref, width: size.width, height: size.height };
}
