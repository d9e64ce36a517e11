import { startTransition, useEffect, useState } from "react";

/**
 * False until the browser is first idle after mount (at most `timeout` ms later): parts that are not
 * needed for the first look (pickers, toasts) wait for it, so their downloads do not compete with the
 * data and charts of the screen. The switch is a transition: a part that loads lazily then keeps its
 * stand-in on screen until it arrives, instead of React hiding the stand-in and mounting a second copy
 * as the fallback (two buttons in a row that only has room for one: the phone header ran off screen).
 */
export function useIdle(timeout = 2000): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    const becomeIdle = () => startTransition(() => setIdle(true));
    if (typeof window.requestIdleCallback === "function") {
      const handle = window.requestIdleCallback(becomeIdle, { timeout });
      return () => window.cancelIdleCallback(handle);
    }
    const handle = window.setTimeout(becomeIdle, 200);
    return () => window.clearTimeout(handle);
  }, [timeout]);
  return idle;
}
