import type { TDashboardStyles } from "@app/core";
import { useEffect, useMemo, useRef, useState } from "react";
import { saveDashboard } from "./api";
import { createDashboardSaver, type DashboardSnapshot, type SaveStatus, type StyleImageField } from "./dashboard-saver";

export {
  type DashboardSnapshot,
  SAVE_ATTEMPTS,
  SAVE_DEBOUNCE_MS,
  type SaveStatus,
  type StyleImageField,
} from "./dashboard-saver";

interface Options {
  dashboardId: string;
  /** Called with the stored styles (new image paths) and the image files that save carried. */
  onSaved: (styles: TDashboardStyles, sentFiles: StyleImageField[]) => void;
  onFailed: (error: unknown, sent: DashboardSnapshot) => void;
  /** What a save did besides, for its user to hear (an alert removed with its goal). */
  onNotices: (notices: string[]) => void;
}

/** The dashboard saver (dashboard-saver.ts: debounce, abort of a superseded save, 504 retries) bound to a screen. */
export function useDashboardSaver({ dashboardId, onSaved, onFailed, onNotices }: Options) {
  const [status, setStatus] = useState<SaveStatus>("idle");
  const callbacks = useRef({ onSaved, onFailed, onNotices });
  callbacks.current = { onSaved, onFailed, onNotices };

  const saver = useMemo(
    () =>
      createDashboardSaver({
        save: async (form, signal) => {
          const { styles, notices } = await saveDashboard(dashboardId, form, signal);
          if (notices.length > 0) callbacks.current.onNotices(notices);
          return styles;
        },
        onStatus: setStatus,
        onSaved: (styles, sent) => callbacks.current.onSaved(styles, sent),
        onFailed: (error, sent) => callbacks.current.onFailed(error, sent),
      }),
    [dashboardId],
  );

  // Leaving the page sends what is still waiting instead of dropping it.
  useEffect(() => () => saver.leave(), [saver]);

  return { status, schedule: saver.schedule, setFile: saver.setFile, flush: saver.flush };
}
