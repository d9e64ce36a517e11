import type { HistoricArticle } from "@app/core";
import { ActionIcon, Button, Card, Group, SimpleGrid, Stack, Text, Textarea, TextInput } from "@mantine/core";
import { IconPlus, IconTrash } from "../../../ui/icons";

interface Props {
  articles: HistoricArticle[];
  onChange: (articles: HistoricArticle[]) => void;
}

const blank = (): HistoricArticle => ({
  file: null,
  header: "",
  content: "",
  description: "",
  range: { startDate: "", endDate: "" },
});

/**
 * The dated notes of a historic widget (docs/product.md §3): each has a header, a text and the period it
 * belongs to; the dashboard shows the notes of the period it displays.
 */
export function HistoricArticlesFields({ articles, onChange }: Props) {
  const update = (index: number, patch: Partial<HistoricArticle>) =>
    onChange(articles.map((article, i) => (i === index ? { ...article, ...patch } : article)));
  return (
    <Stack gap="xs">
      <Text fz="sm" fw={500}>
        Notes
      </Text>
      {articles.length === 0 ? (
        <Text fz="sm" c="dimmed">
          Add a note for each period worth explaining, such as a launch or an outage.
        </Text>
      ) : null}
      {articles.map((article, index) => (
        // Notes have no id of their own; their position is their identity while the form is open.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Card key={index} withBorder padding="sm" radius="md" aria-label={`Note ${index + 1}`}>
          <Stack gap="xs">
            <Group gap="xs" wrap="nowrap" align="flex-end">
              <TextInput
                style={{ flex: 1 }}
                label="Note header"
                required
                value={article.header}
                onChange={(event) => update(index, { header: event.currentTarget.value })}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                aria-label={`Remove note ${index + 1}`}
                onClick={() => onChange(articles.filter((_, i) => i !== index))}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
            <SimpleGrid cols={2} spacing="xs">
              <TextInput
                type="date"
                label="From"
                required
                value={article.range.startDate}
                onChange={(event) =>
                  update(index, { range: { ...article.range, startDate: event.currentTarget.value } })
                }
              />
              <TextInput
                type="date"
                label="To"
                required
                value={article.range.endDate}
                error={
                  article.range.startDate && article.range.endDate && article.range.endDate < article.range.startDate
                    ? "The end is before the start."
                    : undefined
                }
                onChange={(event) => update(index, { range: { ...article.range, endDate: event.currentTarget.value } })}
              />
            </SimpleGrid>
            <Textarea
              label="Note text"
              autosize
              minRows={2}
              maxRows={8}
              value={article.content}
              onChange={(event) => update(index, { content: event.currentTarget.value })}
            />
          </Stack>
        </Card>
      ))}
      <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => onChange([...articles, blank()])}>
        Add note
      </Button>
    </Stack>
  );
}
