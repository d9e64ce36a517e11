import { articlesForRange, formatDisplayDate, type TPassiveWidget } from "@app/core";
import { Box, Image, Stack, Text } from "@mantine/core";
import { LazySafeHtml as SafeHtml } from "../../../ui/LazySafeHtml";

/** Text card (HTML, sanitised on display), uploaded image, or the dated articles of the shown period. */
export function PassiveWidget({
  widget,
  range,
}: {
  widget: TPassiveWidget;
  range: { startDate: string; endDate: string };
}) {
  const description = widget.inputs.description ?? widget.description ?? "";
  if (widget.type === "upload") {
    return (
      <Stack gap="xs" h="100%" className="dash-passive">
        {widget.inputs.file ? (
          <Box className="dash-image-frame">
            <Image src={widget.inputs.file} alt={widget.title} fit="contain" h="100%" w="100%" />
          </Box>
        ) : (
          <Text className="dash-muted" fz="sm">
            No image uploaded yet.
          </Text>
        )}
        {description ? <SafeHtml html={description} className="safe-html dash-text-card" fz="sm" /> : null}
      </Stack>
    );
  }
  if (widget.type === "historic") {
    const articles = articlesForRange(widget.inputs.articles ?? [], range.startDate, range.endDate);
    if (articles.length === 0) {
      return (
        <Text className="dash-muted" fz="sm">
          No notes for this period.
        </Text>
      );
    }
    return (
      <Stack gap="sm" className="dash-passive dash-scroll">
        {articles.map((article) => (
          <Box key={`${article.header}-${article.range.startDate}-${article.range.endDate}`}>
            <Text fw={600}>{article.header}</Text>
            <Text fz="xs" className="dash-muted">
              {formatDisplayDate(article.range.startDate)} – {formatDisplayDate(article.range.endDate)}
            </Text>
            <SafeHtml html={article.content || article.description} fz="sm" />
          </Box>
        ))}
      </Stack>
    );
  }
  return description ? (
    <SafeHtml html={description} className="safe-html dash-text-card dash-scroll" />
  ) : (
    <Text className="dash-muted" fz="sm">
      This text card is empty.
    </Text>
  );
}
