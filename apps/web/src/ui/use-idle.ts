import { useEffect, useState } from "react";

/**
 * False until the browser is first idle after mount (at most `timeout` ms later): parts that are not
 * needed for the first look (pickers, toasts) wait for it, so their downloads do not compete with the
 * data and charts of the screen.
 */
export function useIdle(timeout = 2000): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (typeof window.requestIdleCallback === "function") {
      const handle = window.requestIdleCallback(() => setIdle(true), { timeout });
      return () => window.cancelIdleCallback(handle);
    }
    const handle = window.setTimeout(() => setIdle(true), 200);
    return () => window.clearTimeout(handle);
  }, [timeout]);
  return idle;
}
