import { Button, CopyButton, TextInput, Tooltip } from "@mantine/core";
import { IconCheck, IconCopy } from "./icons";

/** docs/product.md §9: the copied confirmation shows for 750 ms. */
export const COPIED_TIMEOUT_MS = 750;

/** A read-only link with a copy button and the 'Copied successfully' confirmation. */
export function CopyLink({ value, label = "Link" }: { value: string; label?: string }) {
  return (
    <CopyButton value={value} timeout={COPIED_TIMEOUT_MS}>
      {({ copied, copy }) => (
        <TextInput
          label={label}
          value={value}
          readOnly
          onFocus={(event) => event.currentTarget.select()}
          rightSectionWidth={120}
          rightSection={
            // The button sits at the field's right end: open the message inward from there.
            <Tooltip label="Copied successfully" opened={copied} position="top-end">
              <Button
                size="compact-sm"
                variant={copied ? "light" : "filled"}
                color={copied ? "teal" : undefined}
                leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                onClick={copy}
              >
                {copied ? "Copied" : "Copy link"}
              </Button>
            </Tooltip>
          }
        />
      )}
    </CopyButton>
  );
}
