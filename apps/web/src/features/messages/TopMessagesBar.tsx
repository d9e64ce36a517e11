import { groupMessagesByType, type TGlobalMessage } from "@app/core";
import { Alert, type MantineColor, Stack } from "@mantine/core";
import type { ReactNode } from "react";
import { IconAlert, IconCircleCheck, IconInfo } from "../../ui/icons";
import { SafeHtml } from "../../ui/SafeHtml";
import { usePageData } from "../session/hooks";
import { useDismissedMessages } from "./dismissed";

const LOOK: Record<TGlobalMessage["type"], { color: MantineColor; icon: ReactNode }> = {
  error: { color: "red", icon: <IconAlert /> },
  warning: { color: "orange", icon: <IconAlert /> },
  success: { color: "teal", icon: <IconCircleCheck /> },
  info: { color: "brand", icon: <IconInfo /> },
};

/** Global messages of the page data, grouped by type (docs/product.md §2); closeable ones can be dismissed for the session. */
export function TopMessagesBar() {
  const { messages } = usePageData();
  const { dismissed, dismiss } = useDismissedMessages();
  const visible = messages.filter((message) => !message.closeable || !dismissed.has(message.code));
  if (visible.length === 0) return null;

  return (
    <Stack gap="sm" mb="lg" component="section" aria-label="Messages">
      {groupMessagesByType(visible).map((group) => (
        <Stack key={group.type} gap={6}>
          {group.messages.map((message) => (
            <Alert
              key={message.code}
              variant="light"
              color={LOOK[group.type].color}
              icon={LOOK[group.type].icon}
              title={message.title ?? undefined}
              withCloseButton={message.closeable}
              closeButtonLabel="Dismiss message"
              onClose={() => dismiss(message.code)}
              styles={{ title: { marginBottom: 2 } }}
            >
              <SafeHtml html={message.body} fz="sm" />
            </Alert>
          ))}
        </Stack>
      ))}
    </Stack>
  );
}
