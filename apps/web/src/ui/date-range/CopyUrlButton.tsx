import { buildCopyUrl, COPIED_DURATION_MS } from "@app/core";
import { Button, Tooltip } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { type JSX, useEffect, useRef, useState } from "react";
import { useI18n } from "../../lib/i18n";
import { IconCheck, IconLink } from "../icons";
import { copyText } from "./clipboard";
import type { DateRangeValue } from "./DateRangePicker";

/**
 * Copy URL of docs/product.md §2: copies the current address with the range written as core's buildCopyUrl
 * does, then shows 'Copied successfully' for 750 ms. `onCopied` (onboarding counting its step) runs when
 * the message ends.
 */
export function CopyUrlButton({ value, onCopied }: { value: DateRangeValue; onCopied?: () => void }): JSX.Element {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  // `onCopied` runs once "Copied successfully" has been shown, not at the click: what it sets off may
  // rebuild the button's surroundings (onboarding's last step ends its flow and drops the hint's
  // wrapper, remounting the button), which would take the message away before anyone read it.
  const pending = useRef<(() => void) | null>(null);
  const runPending = () => {
    const run = pending.current;
    pending.current = null;
    run?.();
  };
  useEffect(
    () => () => {
      window.clearTimeout(timer.current);
      // Leaving before the message ended still counts the copy.
      const run = pending.current;
      pending.current = null;
      run?.();
    },
    [],
  );

  const copy = async () => {
    const url = buildCopyUrl(window.location.href, value);
    if (!(await copyText(url))) {
      notifications.show({ color: "red", title: t("dashboard.copyFailed"), message: url });
      return;
    }
    window.clearTimeout(timer.current);
    setCopied(true);
    pending.current = onCopied ?? null;
    timer.current = window.setTimeout(() => {
      setCopied(false);
      runPending();
    }, COPIED_DURATION_MS);
  };

  return (
    // The button ends the header's row, so the message hangs from its right edge inward, never past the
    // screen; teal 9 keeps the white text at 4.5:1.
    <Tooltip label={t("dashboard.copied")} opened={copied} color="teal.9" position="bottom-end">
      <Button
        variant="default"
        leftSection={copied ? <IconCheck size={16} color="var(--mantine-color-teal-7)" /> : <IconLink size={16} />}
        onClick={() => void copy()}
      >
        {t("dashboard.copyUrl")}
      </Button>
    </Tooltip>
  );
}
