import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError, errorMessage } from "../../lib/api";
import { releaseLockOnExit, setDashboardLock } from "./api";

/** The lock is re-taken this often while edit mode is on, so the server never sees it as stale. */
export const LOCK_HEARTBEAT_MS = 30_000;

export const LOCKED_BY_OTHER_MESSAGE = "Another user is editing this dashboard";

interface Options {
  dashboardId: string;
  /** Only members may edit (public viewers never take the lock). */
  canEdit: boolean;
  currentUserId: string | null;
  /** The dashboard's `locked` field when it loaded. */
  lockedBy: string | null;
  /** Tells the user why edit mode could not be switched on (or was lost). */
  onRefused: (message: string) => void;
}

/**
 * Edit mode and its lock (docs/product.md §4, §6): switching on takes the lock, a heartbeat keeps it every 30 s,
 * switching off, unmounting or leaving the page (pagehide, keepalive) releases it. A 409 means another
 * user holds it: edit mode stays off and the toggle is disabled.
 */
export function useEditLock({ dashboardId, canEdit, currentUserId, lockedBy, onRefused }: Options) {
  const [editMode, setEditModeState] = useState(false);
  const [busy, setBusy] = useState(false);
  const [lockedByOther, setLockedByOther] = useState(Boolean(lockedBy && lockedBy !== currentUserId));
  const editing = useRef(false);
  const refused = useRef(onRefused);
  refused.current = onRefused;

  const refuse = useCallback((error: unknown) => {
    if (error instanceof ApiError && error.status === 409) {
      setLockedByOther(true);
      refused.current(error.message || LOCKED_BY_OTHER_MESSAGE);
    } else {
      refused.current(errorMessage(error));
    }
  }, []);

  const setEditMode = useCallback(
    async (on: boolean) => {
      if (!canEdit || on === editing.current) return;
      if (!on) {
        editing.current = false;
        setEditModeState(false);
        await setDashboardLock(dashboardId, "unlock").catch(() => {});
        return;
      }
      setBusy(true);
      try {
        await setDashboardLock(dashboardId, "lock");
        editing.current = true;
        setLockedByOther(false);
        setEditModeState(true);
      } catch (error) {
        refuse(error);
      } finally {
        setBusy(false);
      }
    },
    [canEdit, dashboardId, refuse],
  );

  // Heartbeat while editing; losing the lock to someone else ends edit mode.
  useEffect(() => {
    if (!editMode) return;
    const interval = window.setInterval(() => {
      setDashboardLock(dashboardId, "lock").catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 409) {
          editing.current = false;
          setEditModeState(false);
          refuse(error);
        }
      });
    }, LOCK_HEARTBEAT_MS);
    return () => window.clearInterval(interval);
  }, [editMode, dashboardId, refuse]);

  // Leaving the page (tab closed, reload, another site) releases the lock with a keepalive request.
  useEffect(() => {
    if (!editMode) return;
    const onPageHide = () => {
      if (editing.current) releaseLockOnExit(dashboardId);
    };
    window.addEventListener("pagehide", onPageHide);
    return () => window.removeEventListener("pagehide", onPageHide);
  }, [editMode, dashboardId]);

  // Leaving the screen inside the app releases it too.
  useEffect(
    () => () => {
      if (editing.current) {
        editing.current = false;
        void setDashboardLock(dashboardId, "unlock").catch(() => {});
      }
    },
    [dashboardId],
  );

  return { editMode, setEditMode, busy, lockedByOther };
}
