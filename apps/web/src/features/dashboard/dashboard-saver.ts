import type { DashboardDateRange, TDashboardStyles, TLanguage, TWidget } from "@app/core";
import { ApiError } from "../../lib/api";

/** docs/product.md §7: a save is tried at most this many times in all when the server answers 504. */
export const SAVE_ATTEMPTS = 3;
/** Edits settle for this long before they are saved, so typing does not post on every key. */
export const SAVE_DEBOUNCE_MS = 400;

/** Image parts of the save (docs/product.md §7: snake case). */
export type StyleImageField = "logo_image" | "background_image" | "client_image";

/** Everything one save sends; every save sends the whole state, so the newest one always wins. */
export interface DashboardSnapshot {
  name: string;
  styles: TDashboardStyles;
  widgets: TWidget[];
  hiddenDateSelector: boolean;
  footer: string;
  /** The client's language (docs/product.md §9, "Report language"). */
  language: TLanguage;
  range: DashboardDateRange;
}

export type SaveStatus = "idle" | "pending" | "saving" | "saved" | "failed";

/** The multipart body of one save (docs/product.md §7). */
export function buildSaveForm(snapshot: DashboardSnapshot, files: Partial<Record<StyleImageField, File>>): FormData {
  const form = new FormData();
  form.append("styles", JSON.stringify(snapshot.styles));
  form.append("widgets", JSON.stringify(snapshot.widgets));
  // A blank name is refused by the server; the sidebar shows the error and the old name is kept.
  if (snapshot.name.trim() !== "") form.append("name", snapshot.name.trim());
  form.append("hidden_date_selector", snapshot.hiddenDateSelector ? "1" : "0");
  form.append("footer", snapshot.footer);
  form.append("language", snapshot.language);
  const { range } = snapshot;
  form.append("range_type", range.rangeType);
  if (range.startDate && range.endDate) {
    form.append("start", range.startDate);
    form.append("end", range.endDate);
  }
  const custom = range.customCompare && range.compareStartDate && range.compareEndDate;
  form.append("compare_start", custom ? (range.compareStartDate ?? "") : "");
  form.append("compare_end", custom ? (range.compareEndDate ?? "") : "");
  const entries = Object.entries(files).filter((entry): entry is [StyleImageField, File] => Boolean(entry[1]));
  if (entries.length > 0) {
    form.append("category", "files");
    for (const [field, file] of entries) form.append(field, file, file.name);
  }
  return form;
}

export interface SaverDeps {
  /** Posts one save; rejects with an ApiError on a non-2xx answer, and when `signal` aborts. */
  save: (form: FormData, signal: AbortSignal) => Promise<TDashboardStyles>;
  onStatus: (status: SaveStatus) => void;
  /** Called with the stored styles (new image paths) and the image files that save carried. */
  onSaved: (styles: TDashboardStyles, sentFiles: StyleImageField[]) => void;
  /** Called with the refusal and the state that save sent (a 422's `widgets.2.goals.0.target` is its widget 2). */
  onFailed: (error: unknown, sent: DashboardSnapshot) => void;
}

/**
 * Saves a dashboard as docs/product.md §7 asks: edits are debounced, a newer save aborts an older one still in
 * flight (the aborted one rejects as 'canceled' and is ignored), and a 504 is retried up to three
 * attempts in all. Picked images wait in the queue until a save carrying them succeeds.
 * Free of React so its timing can be tested with fake timers; `useDashboardSaver` binds it to a screen.
 */
export function createDashboardSaver({ save, onStatus, onSaved, onFailed }: SaverDeps) {
  let queued: DashboardSnapshot | null = null;
  const files: Partial<Record<StyleImageField, File>> = {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: AbortController | null = null;

  async function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    const snapshot = queued;
    if (!snapshot) return;
    queued = null;
    inFlight?.abort("canceled");
    const controller = new AbortController();
    inFlight = controller;
    const sent = { ...files };
    const form = buildSaveForm(snapshot, sent);
    onStatus("saving");
    for (let attempt = 1; attempt <= SAVE_ATTEMPTS; attempt += 1) {
      try {
        const styles = await save(form, controller.signal);
        const sentFields = Object.keys(sent) as StyleImageField[];
        for (const field of sentFields) if (files[field] === sent[field]) delete files[field];
        if (inFlight === controller) {
          inFlight = null;
          onStatus(queued ? "pending" : "saved");
        }
        onSaved(styles, sentFields);
        return;
      } catch (error) {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.status === 504 && attempt < SAVE_ATTEMPTS) continue;
        if (inFlight === controller) inFlight = null;
        onStatus("failed");
        onFailed(error, snapshot);
        return;
      }
    }
  }

  return {
    flush,

    /** Queues the state to be saved after the debounce (or at once). */
    schedule(snapshot: DashboardSnapshot, immediate = false): void {
      queued = snapshot;
      onStatus("pending");
      clearTimeout(timer);
      if (immediate) void flush();
      else timer = setTimeout(() => void flush(), SAVE_DEBOUNCE_MS);
    },

    /** Adds (or with null, withdraws) an image to send with the next save. */
    setFile(field: StyleImageField, file: File | null): void {
      if (file) files[field] = file;
      else delete files[field];
    },

    /** Leaving the screen sends what is still waiting instead of dropping it (the saver stays usable). */
    leave(): void {
      if (timer !== undefined) void flush();
    },
  };
}

export type DashboardSaver = ReturnType<typeof createDashboardSaver>;
