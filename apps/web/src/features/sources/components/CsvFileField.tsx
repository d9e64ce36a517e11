import { Box, CloseButton, Group, Input, Text } from "@mantine/core";
import { type DragEvent, useId, useState } from "react";
import { IconUpload } from "../../../ui/icons";

/** docs/product.md §8: anything but a .csv file is refused with this message before it is sent. */
export const INVALID_FILE_TYPE = "Invalid file type";

function isCsv(file: File): boolean {
  return file.name.toLowerCase().endsWith(".csv") || file.type === "text/csv";
}

interface CsvFileFieldProps {
  file: File | null;
  onFileChange: (file: File | null) => void;
  /** The server's message (it names the line of a malformed file). */
  error?: string | null;
  disabled?: boolean;
}

/** A drop zone for one .csv file: click to choose or drop a file; the picked file can be removed. */
export function CsvFileField({ file, onFileChange, error, disabled }: CsvFileFieldProps) {
  const inputId = useId();
  const errorId = `${inputId}-error`;
  const [typeError, setTypeError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [focused, setFocused] = useState(false);
  const shownError = typeError ?? error ?? null;

  const pick = (picked: File | null | undefined) => {
    if (!picked) return;
    if (!isCsv(picked)) {
      setTypeError(INVALID_FILE_TYPE);
      return;
    }
    setTypeError(null);
    onFileChange(picked);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled) pick(event.dataTransfer.files?.[0]);
  };

  const borderColour = shownError
    ? "var(--mantine-color-red-5)"
    : dragging || focused
      ? "var(--mantine-color-brand-5)"
      : "var(--mantine-color-gray-4)";

  return (
    <Input.Wrapper label="CSV file" labelProps={{ htmlFor: inputId }} error={shownError} errorProps={{ id: errorId }}>
      <Box pos="relative">
        <Box
          component="label"
          htmlFor={inputId}
          mt={4}
          p="sm"
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          style={{
            display: "block",
            border: `1px dashed ${borderColour}`,
            borderRadius: "var(--mantine-radius-md)",
            background: dragging ? "var(--mantine-color-brand-0)" : "var(--mantine-color-gray-0)",
            cursor: disabled ? "not-allowed" : "pointer",
            opacity: disabled ? 0.6 : 1,
            transition: "border-color 120ms, background 120ms",
          }}
        >
          <Group gap="sm" wrap="nowrap">
            <IconUpload size={18} color="var(--mantine-color-gray-6)" />
            {file ? (
              <Text size="sm" fw={500} truncate="end" pr={28} style={{ minWidth: 0, flex: 1 }}>
                {file.name}
              </Text>
            ) : (
              <Text size="sm" c="dimmed" style={{ flex: 1 }}>
                Choose a .csv file or drop it here
              </Text>
            )}
          </Group>
        </Box>
        {file ? (
          <CloseButton
            size="sm"
            pos="absolute"
            top="50%"
            right={8}
            style={{ transform: "translateY(-50%)" }}
            onClick={() => onFileChange(null)}
            disabled={disabled}
            aria-label={`Remove ${file.name}`}
          />
        ) : null}
      </Box>
      <input
        id={inputId}
        type="file"
        accept=".csv,text/csv"
        className="visually-hidden-file"
        disabled={disabled}
        aria-label="CSV file"
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        aria-invalid={shownError ? true : undefined}
        aria-describedby={shownError ? errorId : undefined}
        onChange={(event) => {
          const picked = event.currentTarget.files?.[0];
          event.currentTarget.value = "";
          pick(picked);
        }}
      />
    </Input.Wrapper>
  );
}
