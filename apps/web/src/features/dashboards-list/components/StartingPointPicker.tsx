import { Badge, Group, Radio, SimpleGrid, Skeleton, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import type { DashboardTemplate } from "../api";
import { BlankPreview, TemplatePreview } from "./TemplatePreview";

/** The value of the Blank choice; every other value is a template key. */
export const BLANK = "blank";

function Choice({
  value,
  name,
  description,
  preview,
  footer,
}: {
  value: string;
  name: string;
  description: string;
  preview: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <Radio.Card value={value} aria-label={name} radius="lg" p="sm" h="100%">
      <Stack gap="sm" h="100%">
        {preview}
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Radio.Indicator mt={2} />
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text fw={600} size="sm">
              {name}
            </Text>
            <Text size="xs" c="dimmed">
              {description}
            </Text>
          </Stack>
        </Group>
        {footer ? <Group mt="auto">{footer}</Group> : null}
      </Stack>
    </Radio.Card>
  );
}

interface StartingPointPickerProps {
  value: string;
  onChange: (value: string) => void;
  templates: DashboardTemplate[] | undefined;
  loading: boolean;
  error?: string;
}

/** Blank or one of the templates, each shown with a thumbnail of its layout. */
export function StartingPointPicker({ value, onChange, templates, loading, error }: StartingPointPickerProps) {
  return (
    <Radio.Group
      value={value}
      onChange={onChange}
      label="Start from"
      description="Templates come with ready-made widgets over Demo data; swap in your own sources later."
      error={error}
    >
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md" mt="sm">
        <Choice
          value={BLANK}
          name="Blank dashboard"
          description="An empty dashboard to fill with your own widgets."
          preview={<BlankPreview />}
        />
        {loading
          ? Array.from({ length: 3 }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
              <Skeleton key={index} h={200} radius="lg" />
            ))
          : (templates ?? []).map((template) => (
              <Choice
                key={template.key}
                value={template.key}
                name={template.name}
                description={template.description}
                preview={<TemplatePreview widgets={template.widgets} />}
                footer={
                  <Badge size="sm" color="gray" tt="none">
                    {template.widgets.length === 1 ? "1 widget" : `${template.widgets.length} widgets`}
                  </Badge>
                }
              />
            ))}
      </SimpleGrid>
    </Radio.Group>
  );
}
