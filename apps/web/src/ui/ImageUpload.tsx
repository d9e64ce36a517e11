import { Box, Button, Group, Image, Input, Stack, Text } from "@mantine/core";
import { useEffect, useId, useMemo, useState } from "react";
import { IconPhoto, IconTrash, IconUpload } from "./icons";
import { IMAGE_EXTENSIONS, INVALID_FILE_TYPE, isAcceptedImage } from "./image-file";

export interface ImageUploadProps {
  label: string;
  description?: string;
  /** URL of the image saved on the server, if any. */
  currentUrl: string | null;
  /** A newly picked file (not yet saved). */
  file: File | null;
  onFileChange: (file: File | null) => void;
  /** Removes the saved image (the form sends remove_logo). */
  onRemove: () => void;
  error?: string;
}

/** Image picker with preview; refuses anything but png/jpg/jpeg/webp with 'Invalid file type' (docs/product.md §5). */
export function ImageUpload({ label, description, currentUrl, file, onFileChange, onRemove, error }: ImageUploadProps) {
  const inputId = useId();
  const [typeError, setTypeError] = useState<string | null>(null);
  const previewUrl = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => (previewUrl ? URL.revokeObjectURL(previewUrl) : undefined), [previewUrl]);
  const shown = previewUrl ?? currentUrl;

  return (
    <Input.Wrapper label={label} labelProps={{ htmlFor: inputId }} description={description} error={typeError ?? error}>
      <Group gap="lg" mt={6} align="center" wrap="nowrap">
        <Box
          w={112}
          h={72}
          bdrs="md"
          style={{
            border: "1px dashed var(--mantine-color-gray-4)",
            background: "var(--mantine-color-gray-0)",
            display: "flex",
            alignItems: "center",
            justifyContent: "center",
            overflow: "hidden",
            flexShrink: 0,
          }}
        >
          {shown ? (
            <Image src={shown} alt={`${label} preview`} fit="contain" w="100%" h="100%" p={6} />
          ) : (
            <IconPhoto size={28} color="var(--mantine-color-gray-5)" />
          )}
        </Box>
        <Stack gap={6}>
          <Group gap="xs">
            <Button
              component="label"
              htmlFor={inputId}
              variant="default"
              size="xs"
              leftSection={<IconUpload size={14} />}
            >
              {shown ? "Replace image" : "Upload image"}
            </Button>
            {shown ? (
              <Button
                variant="subtle"
                color="red"
                size="xs"
                leftSection={<IconTrash size={14} />}
                onClick={() => {
                  setTypeError(null);
                  if (file) onFileChange(null);
                  else onRemove();
                }}
              >
                Remove image
              </Button>
            ) : null}
          </Group>
          <Text size="xs" c="dimmed">
            PNG, JPG or WEBP
          </Text>
        </Stack>
      </Group>
      <input
        id={inputId}
        type="file"
        className="visually-hidden-file"
        accept={IMAGE_EXTENSIONS.map((extension) => `.${extension}`).join(",")}
        onChange={(event) => {
          const picked = event.currentTarget.files?.[0] ?? null;
          event.currentTarget.value = "";
          if (!picked) return;
          if (!isAcceptedImage(picked)) {
            setTypeError(INVALID_FILE_TYPE);
            return;
          }
          setTypeError(null);
          onFileChange(picked);
        }}
      />
    </Input.Wrapper>
  );
}
