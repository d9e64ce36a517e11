import { WIDGET_SIZES, widgetSize, widgetSizeByName } from "@app/core";
import { SimpleGrid, Stack, Textarea, TextInput } from "@mantine/core";
import { useState } from "react";
import { errorMessage } from "../../../lib/api";
import { ImageUpload } from "../../../ui/ImageUpload";
import { SelectInput } from "../../../ui/SelectInput";
import { uploadWidgetImage } from "../api";
import type { PassiveDraft, PassiveKind } from "./draft";
import { HistoricArticlesFields } from "./HistoricArticlesFields";

interface Props {
  draft: PassiveDraft;
  onChange: (patch: Partial<PassiveDraft>) => void;
  /** Called with every file uploaded while the form is open (removed again if the form is cancelled). */
  onUploaded: (filename: string) => void;
  /** Called when the user removes the picture. */
  onRemoveFile: (filename: string) => void;
}

/** Text card (HTML) or image upload (png, jpg, jpeg, webp; anything else is 'Invalid file type'). */
export function PassiveFields({ draft, onChange, onUploaded, onRemoveFile }: Props) {
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | undefined>();
  const size = widgetSize(draft.width, draft.height);

  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <SelectInput
          label="Widget type"
          required
          searchable={false}
          data={[
            { value: "plain", label: "Text card" },
            { value: "upload", label: "Image" },
            { value: "historic", label: "Dated notes" },
          ]}
          value={draft.type}
          onChange={(next) => onChange({ type: (next as PassiveKind | null) ?? "plain" })}
        />
        <SelectInput
          label="Size"
          required
          searchable={false}
          data={WIDGET_SIZES.map((item) => ({ value: item.name, label: item.name }))}
          value={size?.name ?? null}
          onChange={(next) => {
            const picked = next ? widgetSizeByName(next) : null;
            if (picked) onChange({ width: picked.width, height: picked.height });
          }}
        />
      </SimpleGrid>
      <TextInput
        label="Title"
        required
        maxLength={255}
        value={draft.title}
        onChange={(event) => onChange({ title: event.currentTarget.value })}
      />
      {draft.type === "upload" ? (
        <ImageUpload
          label="Image"
          description={uploading ? "Uploading…" : undefined}
          currentUrl={draft.file}
          file={null}
          error={uploadError}
          onFileChange={(file) => {
            if (!file) return;
            setUploading(true);
            setUploadError(undefined);
            uploadWidgetImage(file)
              .then((uploaded) => {
                onUploaded(uploaded.filename);
                onChange({ file: uploaded.filename });
              })
              .catch((error: unknown) => setUploadError(errorMessage(error)))
              .finally(() => setUploading(false));
          }}
          onRemove={() => {
            if (draft.file) onRemoveFile(draft.file);
            onChange({ file: null });
          }}
        />
      ) : null}
      {draft.type === "historic" ? (
        <HistoricArticlesFields articles={draft.articles} onChange={(articles) => onChange({ articles })} />
      ) : null}
      <Textarea
        label="Description"
        description="Basic HTML is allowed: bold, italics, links and lists."
        autosize
        minRows={draft.type === "upload" ? 2 : 6}
        maxRows={14}
        value={draft.description}
        onChange={(event) => onChange({ description: event.currentTarget.value })}
      />
    </Stack>
  );
}
