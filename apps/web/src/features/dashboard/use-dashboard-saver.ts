import type { DashboardDateRange, TDashboardStyles, TWidget } from "@app/core";
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError } from "../../lib/api";
import { saveDashboard } from "./api";

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
  range: DashboardDateRange;
}

export type SaveStatus = "idle" | "pending" | "saving" | "saved" | "failed";

function buildForm(snapshot: DashboardSnapshot, files: Partial<Record<StyleImageField, File>>): FormData {
  const form = new FormData();
  form.append("styles", JSON.stringify(snapshot.styles));
  form.append("widgets", JSON.stringify(snapshot.widgets));
  // A blank name is refused by the server; the sidebar shows the error and the old name is kept.
  if (snapshot.name.trim() !== "") form.append("name", snapshot.name.trim());
  form.append("hidden_date_selector", snapshot.hiddenDateSelector ? "1" : "0");
  form.append("footer", snapshot.footer);
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

interface Options {
  dashboardId: string;
  /** Called with the stored styles (new image paths) and the image files that save carried. */
  onSaved: (styles: TDashboardStyles, sentFiles: StyleImageField[]) => void;
  onFailed: (error: unknown) => void;
}

/**
 * Saves the dashboard as docs/product.md §7 asks: edits are debounced, a newer save aborts an older one still in
 * flight (the aborted one rejects as 'canceled' and is ignored), and a 504 is retried up to three
 * attempts in all. Picked images wait in the queue until a save carrying them succeeds.
 */
export function useDashboardSaver({ dashboardId, onSaved, onFailed }: Options) {
  const [status, setStatus] = useState<SaveStatus>("idle");
  const queued = useRef<DashboardSnapshot | null>(null);
  const files = useRef<Partial<Record<StyleImageField, File>>>({});
  const timer = useRef<number | undefined>(undefined);
  const inFlight = useRef<AbortController | null>(null);
  const callbacks = useRef({ onSaved, onFailed });
  callbacks.current = { onSaved, onFailed };

  const flush = useCallback(async () => {
    window.clearTimeout(timer.current);
    timer.current = undefined;
    const snapshot = queued.current;
    if (!snapshot) return;
    queued.current = null;
    inFlight.current?.abort("canceled");
    const controller = new AbortController();
    inFlight.current = controller;
    const sent = { ...files.current };
    const form = buildForm(snapshot, sent);
    setStatus("saving");
    for (let attempt = 1; attempt <= SAVE_ATTEMPTS; attempt += 1) {
      try {
        const styles = await saveDashboard(dashboardId, form, controller.signal);
        const sentFields = Object.keys(sent) as StyleImageField[];
        for (const field of sentFields) if (files.current[field] === sent[field]) delete files.current[field];
        if (inFlight.current === controller) {
          inFlight.current = null;
          setStatus(queued.current ? "pending" : "saved");
        }
        callbacks.current.onSaved(styles, sentFields);
        return;
      } catch (error) {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.status === 504 && attempt < SAVE_ATTEMPTS) continue;
        if (inFlight.current === controller) inFlight.current = null;
        setStatus("failed");
        callbacks.current.onFailed(error);
        return;
      }
    }
  }, [dashboardId]);

  /** Queues the state to be saved after the debounce (or at once). */
  const schedule = useCallback(
    (snapshot: DashboardSnapshot, immediate = false) => {
      queued.current = snapshot;
      setStatus("pending");
      window.clearTimeout(timer.current);
      if (immediate) void flush();
      else timer.current = window.setTimeout(() => void flush(), SAVE_DEBOUNCE_MS);
    },
    [flush],
  );

  /** Adds (or with null, withdraws) an image to send with the next save. */
  const setFile = useCallback((field: StyleImageField, file: File | null) => {
    if (file) files.current[field] = file;
    else delete files.current[field];
  }, []);

  // Leaving the page sends what is still waiting instead of dropping it.
  useEffect(
    () => () => {
      if (timer.current !== undefined) void flush();
    },
    [flush],
  );

  return { status, schedule, setFile, flush };
}
