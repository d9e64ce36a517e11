import { Box, type BoxProps } from "@mantine/core";
import { type MouseEvent, useMemo } from "react";
import { useNavigate } from "react-router";
import { sanitizeUserHtml } from "./user-html";

/** Renders server or user HTML after the user-HTML allow-list (DOMPurify); in-app links navigate without a page load. */
export function SafeHtml({ html, ...props }: BoxProps & { html: string }) {
  const navigate = useNavigate();
  const clean = useMemo(() => sanitizeUserHtml(html), [html]);

  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const anchor = (event.target as HTMLElement).closest("a");
    const href = anchor?.getAttribute("href");
    if (!href?.startsWith("/") || href.startsWith("//") || anchor?.target === "_blank") return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(href);
  };

  return (
    // biome-ignore lint/security/noDangerouslySetInnerHtml: the HTML is sanitised by sanitizeUserHtml just above.
    <Box className="safe-html" {...props} onClick={onClick} dangerouslySetInnerHTML={{ __html: clean }} />
  );
}
