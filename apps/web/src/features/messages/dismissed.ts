import { useCallback, useState } from "react";

const STORAGE_KEY = "dismissedMessages";

function read(): number[] {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((code): code is number => typeof code === "number") : [];
  } catch {
    return [];
  }
}

/** Codes of the global messages closed in this browser tab (kept in sessionStorage). */
export function useDismissedMessages(): { dismissed: ReadonlySet<number>; dismiss: (code: number) => void } {
  const [codes, setCodes] = useState<number[]>(read);
  const dismiss = useCallback((code: number) => {
    setCodes((current) => {
      const next = current.includes(code) ? current : [...current, code];
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next));
      } catch {
        // Without storage the message stays closed until the next page load.
      }
      return next;
    });
  }, []);
  return { dismissed: new Set(codes), dismiss };
}
