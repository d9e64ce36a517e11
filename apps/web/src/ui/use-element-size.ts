import { startTransition, useCallback, useRef, useState } from "react";

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
export function useElementSize<T extends HTMLElement = HTMLDivElement>() {
  const [size, setSize] = useState<Size>({ width: 0, height: 0 });
  const observer = useRef<ResizeObserver | null>(null);
  const frame = useRef(0);
  const ref = useCallback((node: T | null) => {
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
