import { ApiError, errorMessage } from "../../lib/api";

/** The lock is re-taken this often while edit mode is on, so the server never sees it as stale. */
export const LOCK_HEARTBEAT_MS = 30_000;

export const LOCKED_BY_OTHER_MESSAGE = "Another user is editing this dashboard";

export interface EditLockState {
  editMode: boolean;
  /** Taking the lock is under way (the toggle waits). */
  busy: boolean;
  /** Another user holds the lock: the toggle is disabled and nothing is saved. */
  lockedByOther: boolean;
}

export interface EditLockDeps {
  /** PUT {type} on the dashboard; rejects with an ApiError (409: another user holds it). */
  setLock: (type: "lock" | "unlock") => Promise<unknown>;
  /** Releases the lock with a request that outlives the page (keepalive). */
  releaseOnExit: () => void;
  /** Read at each switch: only members may edit (public viewers never take the lock). */
  canEdit: () => boolean;
  onChange: (state: EditLockState) => void;
  /** Tells the user why edit mode could not be switched on (or was lost). */
  onRefused: (message: string) => void;
}

/** The state a dashboard opens with: its `locked` field names the holder, if any. */
export function initialEditLockState(lockedBy: string | null, currentUserId: string | null): EditLockState {
  return { editMode: false, busy: false, lockedByOther: Boolean(lockedBy && lockedBy !== currentUserId) };
}

/**
 * Edit mode and its lock (docs/product.md §4, §6): switching on takes the lock, a heartbeat keeps it every 30 s,
 * switching off, leaving the screen or leaving the page (pagehide, keepalive) releases it. A 409 means
 * another user holds it: edit mode stays off and the toggle is disabled. Free of React so its timing
 * can be tested with fake timers; `useEditLock` binds it to a screen.
 */
export function createEditLock(deps: EditLockDeps, initial: EditLockState) {
  let state = initial;
  let heartbeat: ReturnType<typeof setInterval> | undefined;

  function update(patch: Partial<EditLockState>) {
    state = { ...state, ...patch };
    deps.onChange(state);
  }

  function refuse(error: unknown) {
    if (error instanceof ApiError && error.status === 409) {
      update({ lockedByOther: true });
      deps.onRefused(error.message || LOCKED_BY_OTHER_MESSAGE);
    } else {
      deps.onRefused(errorMessage(error));
    }
  }

  function stopHeartbeat() {
    clearInterval(heartbeat);
    heartbeat = undefined;
  }

  // Losing the lock to someone else ends edit mode; other failures (a blip) leave it to the next beat.
  function startHeartbeat() {
    stopHeartbeat();
    heartbeat = setInterval(() => {
      deps.setLock("lock").catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 409) {
          stopHeartbeat();
          update({ editMode: false });
          refuse(error);
        }
      });
    }, LOCK_HEARTBEAT_MS);
  }

  return {
    state: () => state,

    async setEditMode(on: boolean): Promise<void> {
      if (!deps.canEdit() || on === state.editMode) return;
      if (!on) {
        stopHeartbeat();
        update({ editMode: false });
        await deps.setLock("unlock").catch(() => {});
        return;
      }
      update({ busy: true });
      try {
        await deps.setLock("lock");
        update({ editMode: true, lockedByOther: false });
        startHeartbeat();
      } catch (error) {
        refuse(error);
      } finally {
        update({ busy: false });
      }
    },

    /** The page is going away (tab closed, reload, another site). */
    pageHidden(): void {
      if (state.editMode) deps.releaseOnExit();
    },

    /** Leaving the screen inside the app releases the lock too. */
    leave(): void {
      stopHeartbeat();
      if (state.editMode) {
        state = { ...state, editMode: false };
        void deps.setLock("unlock").catch(() => {});
      }
    },
  };
}

export type EditLock = ReturnType<typeof createEditLock>;
