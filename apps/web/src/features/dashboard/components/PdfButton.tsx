import { Button } from "@mantine/core";
import { useEffect, useRef, useState } from "react";
import { reportFailure } from "../../../lib/error-reporting";
import { useI18n } from "../../../lib/i18n";
import { IconAlert, IconDownload } from "../../../ui/icons";
import { LazyTooltip as Tooltip } from "../../../ui/LazyTooltip";
import { onboardingEvent } from "../../onboarding";
import { usePageData } from "../../session/hooks";
import { type PdfRequest, requestDashboardPdf } from "../api";
import {
  PDF_FAILED_MS,
  PDF_GIVE_UP_MS,
  type PdfButtonState,
  pdfButtonView,
  pdfClick,
  pdfPollDelay,
} from "../pdf-export";

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(new DOMException("aborted", "AbortError"));
    });
  });

/** Saves a file through a temporary link (the browser's own download, with the server's file name). */
function saveFile(file: Blob, filename: string) {
  const url = URL.createObjectURL(file);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The header's PDF button, beside "Sharing" (docs/product.md §2, §4), for owners and public viewers alike: asks the
 * server for the PDF of what is on screen (period, zone), polls while it is made, then offers the file.
 */
export function PdfButton({ request, widgetCount }: { request: Omit<PdfRequest, "check">; widgetCount: number }) {
  const { config } = usePageData();
  const { t } = useI18n();
  const [state, setState] = useState<PdfButtonState>("idle");
  const file = useRef<{ file: Blob; filename: string } | null>(null);
  const running = useRef<AbortController | null>(null);
  useEffect(() => () => running.current?.abort(), []);

  // What is on screen changed (another period): a PDF made for the old one is not offered.
  const requestKey = JSON.stringify(request);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset exactly when the request changes
  useEffect(() => {
    running.current?.abort();
    file.current = null;
    setState("idle");
  }, [requestKey]);

  const start = async () => {
    const controller = new AbortController();
    running.current = controller;
    setState("loading");
    const started = Date.now();
    try {
      let step = await requestDashboardPdf(request, controller.signal);
      for (let attempt = 0; step.state === "pending"; attempt += 1) {
        // Reported, never shown: the button says the PDF could not be made.
        if (Date.now() - started > PDF_GIVE_UP_MS) throw new Error("The PDF took too long to make.");
        await wait(pdfPollDelay(attempt), controller.signal);
        step = await requestDashboardPdf({ ...request, check: step.check }, controller.signal);
      }
      file.current = { file: step.file, filename: step.filename };
      setState("ready");
    } catch (error) {
      if (controller.signal.aborted) return;
      reportFailure("dashboard.pdf", error);
      setState("failed");
      setTimeout(() => setState((current) => (current === "failed" ? "idle" : current)), PDF_FAILED_MS);
    }
  };

  const onClick = () => {
    const action = pdfClick(state);
    if (action === "start") void start();
    if (action === "download" && file.current) {
      saveFile(file.current.file, file.current.filename);
      file.current = null;
      onboardingEvent("pdf_downloaded");
      setState("idle");
    }
  };

  const view = pdfButtonView(state, widgetCount, config.maxPdfWidgets, t);
  return (
    <Tooltip label={view.tooltip} disabled={!view.tooltip} multiline maw={260}>
      {/* A disabled button gets no pointer events: the wrapper keeps the tooltip reachable. */}
      <span style={{ display: "inline-flex" }}>
        <Button
          variant={state === "ready" ? "filled" : "default"}
          className="dash-pdf"
          data-state={state}
          onClick={onClick}
          disabled={view.disabled}
          loading={state === "loading"}
          leftSection={state === "failed" ? <IconAlert size={16} /> : <IconDownload size={16} />}
          aria-label={view.tooltip && view.disabled ? `${view.label}: ${view.tooltip}` : view.label}
        >
          {view.label}
        </Button>
      </span>
    </Tooltip>
  );
}
