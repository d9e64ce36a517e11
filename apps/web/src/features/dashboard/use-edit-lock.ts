import { useEffect, useMemo, useRef, useState } from "react";
import { releaseLockOnExit, setDashboardLock } from "./api";
import { createEditLock, type EditLockState, initialEditLockState } from "./edit-lock";

export { LOCK_HEARTBEAT_MS, LOCKED_BY_OTHER_MESSAGE } from "./edit-lock";

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

/** Edit mode and its lock (edit-lock.ts: take, heartbeat, release, 409) bound to a screen. */
export function useEditLock({ dashboardId, canEdit, currentUserId, lockedBy, onRefused }: Options) {
  const [initial] = useState(() => initialEditLockState(lockedBy, currentUserId));
  const [state, setState] = useState<EditLockState>(initial);
  const latest = useRef({ canEdit, onRefused });
  latest.current = { canEdit, onRefused };

  const lock = useMemo(
    () =>
      createEditLock(
        {
          setLock: (type) => setDashboardLock(dashboardId, type),
          releaseOnExit: () => releaseLockOnExit(dashboardId),
          canEdit: () => latest.current.canEdit,
          onChange: setState,
          onRefused: (message) => latest.current.onRefused(message),
        },
        initial,
      ),
    [dashboardId, initial],
  );

  // Leaving the page (tab closed, reload, another site) releases the lock with a keepalive request.
  useEffect(() => {
    const onPageHide = () => lock.pageHidden();
    window.addEventListener("pagehide", onPageHide);
    return () => window.removeEventListener("pagehide", onPageHide);
  }, [lock]);

  // Leaving the screen inside the app releases it too.
  useEffect(() => () => lock.leave(), [lock]);

  return {
    editMode: state.editMode,
    setEditMode: lock.setEditMode,
    busy: state.busy,
    lockedByOther: state.lockedByOther,
  };
}
