import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../lib/api";
import { createEditLock, type EditLockState, initialEditLockState, LOCK_HEARTBEAT_MS } from "./edit-lock";

const TAKEN = "Another user is editing this dashboard. Edit mode is available when they finish.";
const conflict = () => new ApiError(409, { code: "conflict", message: TAKEN });

type Answer = "ok" | (() => unknown);

/**
 * An edit lock over a fake server: each lock request takes the next scripted answer (default: granted)
 * and settles when the test lets promises run.
 */
function harness(options: { canEdit?: boolean; lockedByOther?: boolean; answers?: Answer[] } = {}) {
  const answers = [...(options.answers ?? [])];
  const requests: Array<"lock" | "unlock"> = [];
  const states: EditLockState[] = [];
  const refusals: string[] = [];
  const releaseOnExit = vi.fn();
  let canEdit = options.canEdit ?? true;
  const lock = createEditLock(
    {
      setLock: async (type) => {
        requests.push(type);
        const answer = answers.shift() ?? "ok";
        if (answer !== "ok") throw answer();
        return type === "lock" ? "me" : null;
      },
      releaseOnExit,
      canEdit: () => canEdit,
      onChange: (state) => states.push(state),
      onRefused: (message) => refusals.push(message),
    },
    { editMode: false, busy: false, lockedByOther: options.lockedByOther ?? false },
  );
  return {
    lock,
    requests,
    states,
    refusals,
    releaseOnExit,
    answerNext: (...next: Answer[]) => answers.push(...next),
    setCanEdit: (value: boolean) => {
      canEdit = value;
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("initialEditLockState", () => {
  it.each<[string | null, string | null, boolean]>([
    [null, "me", false],
    ["me", "me", false],
    ["someone", "me", true],
    ["someone", null, true],
    ["", "me", false],
  ])("locked by %j, viewed by %j: locked by another = %s", (lockedBy, me, expected) => {
    expect(initialEditLockState(lockedBy, me)).toEqual({ editMode: false, busy: false, lockedByOther: expected });
  });
});

describe("edit lock: switching on and off", () => {
  it("takes the lock (busy meanwhile), keeps it with a heartbeat every 30 s, releases it when switched off", async () => {
    const { lock, requests, states } = harness();
    const on = lock.setEditMode(true);
    expect(lock.state()).toMatchObject({ busy: true, editMode: false });
    await on;
    expect(lock.state()).toEqual({ editMode: true, busy: false, lockedByOther: false });
    expect(states.map((s) => [s.busy, s.editMode])).toEqual([
      [true, false],
      [true, true],
      [false, true],
    ]);
    expect(requests).toEqual(["lock"]);

    await vi.advanceTimersByTimeAsync(LOCK_HEARTBEAT_MS - 1);
    expect(requests).toEqual(["lock"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(requests).toEqual(["lock", "lock"]);
    await vi.advanceTimersByTimeAsync(LOCK_HEARTBEAT_MS * 2);
    expect(requests).toEqual(["lock", "lock", "lock", "lock"]);

    await lock.setEditMode(false);
    expect(lock.state().editMode).toBe(false);
    expect(requests.at(-1)).toBe("unlock");
    await vi.advanceTimersByTimeAsync(LOCK_HEARTBEAT_MS * 5);
    expect(requests).toEqual(["lock", "lock", "lock", "lock", "unlock"]);
  });

  it("asking for the mode it is already in sends nothing", async () => {
    const { lock, requests } = harness();
    await lock.setEditMode(false);
    await lock.setEditMode(true);
    await lock.setEditMode(true);
    expect(requests).toEqual(["lock"]);
  });

  it("a viewer who may not edit never takes the lock", async () => {
    const { lock, requests, setCanEdit } = harness({ canEdit: false });
    await lock.setEditMode(true);
    expect(requests).toEqual([]);
    expect(lock.state().editMode).toBe(false);
    // The permission is read at each switch, not when the lock was made.
    setCanEdit(true);
    await lock.setEditMode(true);
    expect(requests).toEqual(["lock"]);
  });

  it("switching off still ends edit mode when the unlock request fails", async () => {
    const { lock, requests, refusals, answerNext } = harness();
    await lock.setEditMode(true);
    answerNext(() => new ApiError(500, null));
    const off = lock.setEditMode(false);
    expect(lock.state().editMode).toBe(false);
    await off;
    expect(requests).toEqual(["lock", "unlock"]);
    expect(refusals).toEqual([]);
  });
});

describe("edit lock: refusals", () => {
  it.each<[string, () => unknown, string, boolean]>([
    ["409: another user holds it", conflict, TAKEN, true],
    ["409 without a message", () => new ApiError(409, null), "Request failed with status 409", true],
    ["500", () => new ApiError(500, null), "Something went wrong on our side. Please try again.", false],
    [
      "network down",
      () => new TypeError("Failed to fetch"),
      "We could not reach the server. Check your connection and try again.",
      false,
    ],
  ])("%s: edit mode stays off and the user is told why", async (_name, error, message, lockedByOther) => {
    const { lock, refusals } = harness({ answers: [error] });
    await lock.setEditMode(true);
    expect(lock.state()).toEqual({ editMode: false, busy: false, lockedByOther });
    expect(refusals).toEqual([message]);
    // Nothing beats for a lock that was never taken.
    await vi.advanceTimersByTimeAsync(LOCK_HEARTBEAT_MS * 3);
  });

  it("taking the lock clears a stale 'locked by another' (the holder left)", async () => {
    const { lock } = harness({ lockedByOther: true });
    await lock.setEditMode(true);
    expect(lock.state()).toMatchObject({ editMode: true, lockedByOther: false });
  });
});

describe("edit lock: the heartbeat", () => {
  it("losing the lock to another user ends edit mode, says so and stops beating", async () => {
    const { lock, requests, refusals, answerNext } = harness();
    await lock.setEditMode(true);
    answerNext(conflict);
    await vi.advanceTimersByTimeAsync(LOCK_HEARTBEAT_MS);
    expect(lock.state()).toEqual({ editMode: false, busy: false, lockedByOther: true });
    expect(refusals).toEqual([TAKEN]);
    await vi.advanceTimersByTimeAsync(LOCK_HEARTBEAT_MS * 3);
    expect(requests).toEqual(["lock", "lock"]);
  });

  it.each([
    ["500", () => new ApiError(500, null)],
    ["a network blip", () => new TypeError("Failed to fetch")],
  ])("after %s it keeps edit mode and beats on", async (_name, error) => {
    const { lock, requests, refusals, answerNext } = harness();
    await lock.setEditMode(true);
    answerNext(error);
    await vi.advanceTimersByTimeAsync(LOCK_HEARTBEAT_MS * 2);
    expect(lock.state().editMode).toBe(true);
    expect(refusals).toEqual([]);
    expect(requests).toEqual(["lock", "lock", "lock"]);
  });
});

describe("edit lock: leaving", () => {
  it("the page going away releases the lock with the keepalive request, only while editing", async () => {
    const { lock, releaseOnExit } = harness();
    lock.pageHidden();
    expect(releaseOnExit).not.toHaveBeenCalled();
    await lock.setEditMode(true);
    lock.pageHidden();
    expect(releaseOnExit).toHaveBeenCalledTimes(1);
    await lock.setEditMode(false);
    lock.pageHidden();
    expect(releaseOnExit).toHaveBeenCalledTimes(1);
  });

  it("leaving the screen while editing unlocks once and stops the heartbeat; otherwise sends nothing", async () => {
    const idle = harness();
    idle.lock.leave();
    expect(idle.requests).toEqual([]);

    const { lock, requests } = harness();
    await lock.setEditMode(true);
    lock.leave();
    lock.leave();
    await vi.advanceTimersByTimeAsync(LOCK_HEARTBEAT_MS * 3);
    expect(requests).toEqual(["lock", "unlock"]);
  });
});
