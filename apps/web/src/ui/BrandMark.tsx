import { Group, Image, Text } from "@mantine/core";
import { useId } from "react";

/** The product mark: a bar-chart glyph with the site title, or the company's own logo when white-labelled. */
export function BrandMark({
  siteTitle,
  logoUrl,
  size = "md",
}: {
  siteTitle: string;
  logoUrl?: string | null;
  size?: "md" | "lg";
}) {
  const glyph = size === "lg" ? 36 : 30;
  // One gradient id per mark: a shared id would resolve to a copy inside a hidden subtree and paint nothing.
  const gradientId = `brand-mark-${useId().replace(/[^a-zA-Z0-9_-]/g, "")}`;
  if (logoUrl) {
    return <Image src={logoUrl} alt={siteTitle} h={glyph} w="auto" maw={180} fit="contain" />;
  }
  return (
    <Group gap={10} wrap="nowrap">
      <svg width={glyph} height={glyph} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <defs>
          <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#6e72f2" />
            <stop offset="1" stopColor="#3538bf" />
          </linearGradient>
        </defs>
        <rect width="32" height="32" rx="8" fill={`url(#${gradientId})`} />
        <rect x="8" y="17" width="4" height="8" rx="1.5" fill="#fff" />
        <rect x="14" y="12" width="4" height="13" rx="1.5" fill="#fff" opacity=".85" />
        <rect x="20" y="7" width="4" height="18" rx="1.5" fill="#fff" opacity=".7" />
      </svg>
      <Text fw={700} size={size === "lg" ? "xl" : "lg"} style={{ letterSpacing: -0.3 }} c="dark.8">
        {siteTitle}
      </Text>
    </Group>
  );
}
