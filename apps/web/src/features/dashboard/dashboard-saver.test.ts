import type { TDashboardStyles } from "@app/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../lib/api";
import {
  buildSaveForm,
  createDashboardSaver,
  type DashboardSnapshot,
  SAVE_ATTEMPTS,
  SAVE_DEBOUNCE_MS,
  type SaveStatus,
  type StyleImageField,
} from "./dashboard-saver";

const STYLES = { theme: "light" } as unknown as TDashboardStyles;
const STORED = { theme: "light", logoImage: "/files/c/logo.png" } as unknown as TDashboardStyles;

function snapshot(overrides: Partial<DashboardSnapshot> = {}): DashboardSnapshot {
  return {
    name: "Q3 report",
    styles: STYLES,
    widgets: [],
    hiddenDateSelector: false,
    language: "en",
    footer: "",
    range: {
      rangeType: "last_30_days",
      startDate: "2026-10-01",
      endDate: "2026-10-30",
      compareStartDate: null,
      compareEndDate: null,
      customCompare: false,
    },
    ...overrides,
  } as DashboardSnapshot;
}

/** One save request as the fake server received it; `answer` settles it. */
interface Call {
  form: FormData;
  signal: AbortSignal;
  resolve: (styles: TDashboardStyles) => void;
  reject: (error: unknown) => void;
}

/** A saver over a fake `save` that waits for the test to answer, like a slow network; aborts reject as fetch does. */
function harness() {
  const calls: Call[] = [];
  const statuses: SaveStatus[] = [];
  const onSaved = vi.fn<(styles: TDashboardStyles, sent: StyleImageField[]) => void>();
  const onFailed = vi.fn<(error: unknown) => void>();
  const saver = createDashboardSaver({
    save: (form, signal) =>
      new Promise<TDashboardStyles>((resolve, reject) => {
        calls.push({ form, signal, resolve, reject });
        signal.addEventListener("abort", () => reject(new DOMException("canceled", "AbortError")));
      }),
    onStatus: (status) => statuses.push(status),
    onSaved,
    onFailed,
  });
  return { saver, calls, statuses, onSaved, onFailed };
}

/** Lets the saver's awaits run (promise callbacks), without moving the clock. */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("dashboard saver: debounce", () => {
  it("waits for edits to settle, then saves only the newest state once", async () => {
    const { saver, calls, statuses } = harness();
    saver.schedule(snapshot({ name: "Q" }));
    await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS - 1);
    saver.schedule(snapshot({ name: "Q3" }));
    await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS - 1);
    saver.schedule(snapshot({ name: "Q3 report" }));
    await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS - 1);
    expect(calls).toHaveLength(0);
    expect(statuses).toEqual(["pending", "pending", "pending"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(1);
    expect(calls[0].form.get("name")).toBe("Q3 report");
    expect(statuses.at(-1)).toBe("saving");
    calls[0].resolve(STYLES);
    await settle();
    expect(statuses.at(-1)).toBe("saved");
    await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS * 10);
    expect(calls).toHaveLength(1);
  });

  it("saves at once when asked (immediate), cancelling the waiting debounce", async () => {
    const { saver, calls } = harness();
    saver.schedule(snapshot({ name: "typed" }));
    saver.schedule(snapshot({ name: "dropped widget" }), true);
    await settle();
    expect(calls.map((c) => c.form.get("name"))).toEqual(["dropped widget"]);
    calls[0].resolve(STYLES);
    await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS * 2);
    expect(calls).toHaveLength(1);
  });

  it("flush with nothing queued sends nothing; leaving sends what still waits", async () => {
    const { saver, calls } = harness();
    await saver.flush();
    saver.leave();
    expect(calls).toHaveLength(0);
    saver.schedule(snapshot({ name: "last edit" }));
    saver.leave();
    await settle();
    expect(calls.map((c) => c.form.get("name"))).toEqual(["last edit"]);
    // The debounce that was waiting does not send it a second time.
    calls[0].resolve(STYLES);
    await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS * 2);
    expect(calls).toHaveLength(1);
  });
});

describe("dashboard saver: a newer save supersedes one in flight", () => {
  it("aborts the older request, ignores its rejection and reports the newer one", async () => {
    const { saver, calls, statuses, onSaved, onFailed } = harness();
    saver.schedule(snapshot({ name: "first" }), true);
    await settle();
    saver.schedule(snapshot({ name: "second" }), true);
    await settle();
    expect(calls).toHaveLength(2);
    expect(calls[0].signal.aborted).toBe(true);
    expect(calls[0].signal.reason).toBe("canceled");
    expect(calls[1].signal.aborted).toBe(false);
    expect(onFailed).not.toHaveBeenCalled();
    expect(statuses.at(-1)).toBe("saving");
    calls[1].resolve(STYLES);
    await settle();
    expect(statuses.at(-1)).toBe("saved");
    expect(onSaved).toHaveBeenCalledTimes(1);
    expect(calls[1].form.get("name")).toBe("second");
  });

  it("an aborted save is not retried, even when its last answer was a 504", async () => {
    const { saver, calls } = harness();
    saver.schedule(snapshot({ name: "first" }), true);
    await settle();
    calls[0].reject(new ApiError(504, null));
    await settle();
    expect(calls).toHaveLength(2); // the retry of "first"
    saver.schedule(snapshot({ name: "second" }), true);
    await settle();
    expect(calls.map((c) => [c.form.get("name"), c.signal.aborted])).toEqual([
      ["first", true],
      ["first", true],
      ["second", false],
    ]);
  });

  it("edits made while a save is in flight leave the status pending when it lands", async () => {
    const { saver, calls, statuses } = harness();
    saver.schedule(snapshot({ name: "first" }), true);
    await settle();
    saver.schedule(snapshot({ name: "typing" }));
    calls[0].resolve(STYLES);
    await settle();
    expect(statuses.at(-1)).toBe("pending");
    await vi.advanceTimersByTimeAsync(SAVE_DEBOUNCE_MS);
    expect(calls.map((c) => c.form.get("name"))).toEqual(["first", "typing"]);
  });
});

describe("dashboard saver: retries on 504 (three attempts in all)", () => {
  const gateway = () => new ApiError(504, { message: "Gateway Timeout" });
  it.each<[string, Array<"ok" | (() => unknown)>, number, SaveStatus]>([
    ["saved at once", ["ok"], 1, "saved"],
    ["one 504 then saved", [gateway, "ok"], 2, "saved"],
    ["two 504s then saved", [gateway, gateway, "ok"], 3, "saved"],
    ["three 504s: failed, no fourth try", [gateway, gateway, gateway], SAVE_ATTEMPTS, "failed"],
    ["a 500 is not retried", [() => new ApiError(500, null)], 1, "failed"],
    ["a 422 is not retried", [() => new ApiError(422, { message: "Invalid.", errors: {} })], 1, "failed"],
    ["a network error is not retried", [() => new TypeError("Failed to fetch")], 1, "failed"],
    ["a 504 then a 403: failed on the 403", [gateway, () => new ApiError(403, null)], 2, "failed"],
  ])("%s", async (_name, answers, expectedCalls, finalStatus) => {
    const { saver, calls, statuses, onSaved, onFailed } = harness();
    saver.schedule(snapshot(), true);
    for (const answer of answers) {
      await settle();
      const call = calls.at(-1) as Call;
      if (answer === "ok") call.resolve(STORED);
      else call.reject(answer());
    }
    await settle();
    expect(calls).toHaveLength(expectedCalls);
    // Every attempt posts the same body.
    for (const call of calls) expect(call.form).toBe(calls[0].form);
    expect(statuses.at(-1)).toBe(finalStatus);
    if (finalStatus === "saved") {
      expect(onSaved).toHaveBeenCalledWith(STORED, []);
      expect(onFailed).not.toHaveBeenCalled();
    } else {
      expect(onSaved).not.toHaveBeenCalled();
      expect(onFailed).toHaveBeenCalledTimes(1);
    }
  });
});

describe("dashboard saver: picked images", () => {
  const file = (name: string) => new File([new Uint8Array([1, 2, 3])], name, { type: "image/png" });

  it("go with the next save and leave the queue once it succeeds", async () => {
    const { saver, calls, onSaved } = harness();
    const logo = file("logo.png");
    saver.setFile("logo_image", logo);
    saver.setFile("client_image", file("client.png"));
    saver.setFile("client_image", null);
    saver.schedule(snapshot(), true);
    await settle();
    expect(calls[0].form.get("category")).toBe("files");
    expect((calls[0].form.get("logo_image") as File).name).toBe("logo.png");
    expect(calls[0].form.get("client_image")).toBeNull();
    calls[0].resolve(STORED);
    await settle();
    expect(onSaved).toHaveBeenCalledWith(STORED, ["logo_image"]);
    saver.schedule(snapshot(), true);
    await settle();
    expect(calls[1].form.get("category")).toBeNull();
    expect(calls[1].form.get("logo_image")).toBeNull();
  });

  it("stay queued when the save fails, and a newer pick made meanwhile is kept", async () => {
    const { saver, calls } = harness();
    saver.setFile("logo_image", file("old.png"));
    saver.setFile("background_image", file("bg.png"));
    saver.schedule(snapshot(), true);
    await settle();
    saver.setFile("logo_image", file("new.png"));
    calls[0].reject(new ApiError(500, null));
    await settle();
    saver.schedule(snapshot(), true);
    await settle();
    expect((calls[1].form.get("logo_image") as File).name).toBe("new.png");
    expect((calls[1].form.get("background_image") as File).name).toBe("bg.png");
    calls[1].resolve(STORED);
    await settle();
    saver.schedule(snapshot(), true);
    await settle();
    expect(calls[2].form.get("category")).toBeNull();
  });
});

describe("dashboard saver: an image picked while a save carries the previous one", () => {
  it("stays queued for the next save when that save succeeds", async () => {
    const { saver, calls, onSaved } = harness();
    saver.setFile("logo_image", new File(["a"], "first.png", { type: "image/png" }));
    saver.schedule(snapshot(), true);
    await settle();
    saver.setFile("logo_image", new File(["b"], "second.png", { type: "image/png" }));
    calls[0].resolve(STORED);
    await settle();
    expect(onSaved).toHaveBeenCalledWith(STORED, ["logo_image"]);
    saver.schedule(snapshot(), true);
    await settle();
    expect((calls[1].form.get("logo_image") as File).name).toBe("second.png");
  });
});

describe("buildSaveForm", () => {
  const fields = (form: FormData) => Object.fromEntries([...form.entries()].map(([k, v]) => [k, String(v)]));

  it("sends the whole state, the name trimmed, booleans as 1/0", () => {
    const form = buildSaveForm(
      snapshot({ name: "  Q3  ", hiddenDateSelector: true, footer: "<p>x</p>", language: "de" }),
      {},
    );
    expect(fields(form)).toEqual({
      styles: JSON.stringify(STYLES),
      widgets: "[]",
      name: "Q3",
      hidden_date_selector: "1",
      footer: "<p>x</p>",
      language: "de",
      range_type: "last_30_days",
      start: "2026-10-01",
      end: "2026-10-30",
      compare_start: "",
      compare_end: "",
    });
  });

  it.each<[string, Partial<DashboardSnapshot["range"]>, Record<string, string | undefined>]>([
    ["open range: no start/end", { startDate: null, endDate: null }, { start: undefined, end: undefined }],
    ["half a range: no start/end", { startDate: "2026-10-01", endDate: null }, { start: undefined, end: undefined }],
    [
      "custom comparison sent",
      { customCompare: true, compareStartDate: "2026-09-01", compareEndDate: "2026-09-30" },
      { compare_start: "2026-09-01", compare_end: "2026-09-30" },
    ],
    [
      "comparison dates without the custom flag are cleared",
      { customCompare: false, compareStartDate: "2026-09-01", compareEndDate: "2026-09-30" },
      { compare_start: "", compare_end: "" },
    ],
    [
      "custom flag with half a comparison is cleared",
      { customCompare: true, compareStartDate: "2026-09-01", compareEndDate: null },
      { compare_start: "", compare_end: "" },
    ],
  ])("%s", (_name, range, expected) => {
    const base = snapshot();
    const form = fields(buildSaveForm({ ...base, range: { ...base.range, ...range } }, {}));
    for (const [key, value] of Object.entries(expected)) expect(form[key]).toBe(value);
  });

  it("a blank name is left out (the server would refuse it)", () => {
    expect(buildSaveForm(snapshot({ name: "   " }), {}).has("name")).toBe(false);
  });
});
