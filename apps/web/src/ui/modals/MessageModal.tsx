import { Button, Group, Modal, Text } from "@mantine/core";
import type { MessageModalOptions } from "./types";

interface Props extends MessageModalOptions {
  opened: boolean;
  onClose: () => void;
}

/** A message with one acknowledging button. */
export function MessageModal({ opened, onClose, title, message, buttonLabel = "OK" }: Props) {
  return (
    <Modal opened={opened} onClose={onClose} title={title ?? "Message"} size="md">
      {typeof message === "string" ? <Text>{message}</Text> : message}
      <Group justify="flex-end" mt="xl">
        <Button onClick={onClose} data-autofocus>
          {buttonLabel}
        </Button>
      </Group>
    </Modal>
  );
}
