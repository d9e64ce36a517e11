import type { TSource } from "@app/core";
import { Button, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { IconUpload } from "../../../ui/icons";
import { SelectInput } from "../../../ui/SelectInput";
import { useAddSourceFile, useCreateUploadSource } from "../hooks";
import { CsvFileField } from "./CsvFileField";

const NEW_SOURCE = "new";

interface CsvUploadActionProps {
  connectorKey: string;
  /** The company's existing sources of this connector; a file is added to one of them by default. */
  existing: TSource[];
  labels: Map<string, string>;
}

/** Uploads a .csv file: a new CSV source (POST) or another file of an existing one (PUT). */
export function CsvUploadAction({ connectorKey, existing, labels }: CsvUploadActionProps) {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [target, setTarget] = useState<string>(existing[0]?.id ?? NEW_SOURCE);
  const create = useCreateUploadSource();
  const addFile = useAddSourceFile();
  const pending = create.isPending || addFile.isPending;
  const targetSource = existing.find((source) => source.id === target) ?? null;

  const onError = (failure: unknown) => {
    const fields = fieldErrors(failure);
    setError(fields?.file ?? fields?.name ?? fields?.general ?? errorMessage(failure));
  };

  const onDone = (saved: TSource, uploaded: File) => {
    setFile(null);
    setTarget(saved.id);
    notifications.show({
      color: "teal",
      title: "CSV uploaded",
      message: `${uploaded.name} is ready to use in widgets (${labels.get(saved.id) ?? "CSV upload"}).`,
    });
  };

  const upload = () => {
    if (!file) return;
    setError(null);
    const uploaded = file;
    if (targetSource) {
      addFile.mutate({ source: targetSource, file: uploaded }, { onSuccess: (s) => onDone(s, uploaded), onError });
    } else {
      create.mutate({ name: connectorKey, file: uploaded }, { onSuccess: (s) => onDone(s, uploaded), onError });
    }
  };

  return (
    <Stack gap="sm">
      {existing.length > 0 ? (
        <SelectInput
          label="Add to"
          size="sm"
          searchable={false}
          data={[
            ...existing.map((source) => ({ value: source.id, label: labels.get(source.id) ?? "CSV upload" })),
            { value: NEW_SOURCE, label: "A new CSV source" },
          ]}
          value={targetSource ? target : NEW_SOURCE}
          onChange={(value) => setTarget(value ?? NEW_SOURCE)}
        />
      ) : null}
      <CsvFileField
        file={file}
        onFileChange={(picked) => {
          setFile(picked);
          setError(null);
        }}
        error={error}
        disabled={pending}
      />
      <Button leftSection={<IconUpload size={16} />} onClick={upload} disabled={!file} loading={pending} fullWidth>
        Upload CSV
      </Button>
      <Text size="xs" c="dimmed">
        Comma, semicolon or tab separated. Each widget chooses whether the file has header and totals rows.
      </Text>
    </Stack>
  );
}
