import { Button, Group, Modal, Text } from "@mantine/core";
import { DEFAULT_QUESTION_TITLE, type QuestionModalOptions } from "./types";

interface Props extends QuestionModalOptions {
  opened: boolean;
  onAnswer: (answer: boolean) => void;
}

/** A yes/no question; closing it counts as Cancel. */
export function QuestionModal({
  opened,
  onAnswer,
  title = DEFAULT_QUESTION_TITLE,
  message,
  submitLabel = "Submit",
  cancelLabel = "Cancel",
  danger = false,
}: Props) {
  return (
    <Modal opened={opened} onClose={() => onAnswer(false)} title={title} size="md">
      {message ? typeof message === "string" ? <Text c="dimmed">{message}</Text> : message : null}
      <Group justify="flex-end" mt="xl">
        <Button variant="default" onClick={() => onAnswer(false)}>
          {cancelLabel}
        </Button>
        <Button color={danger ? "red" : undefined} onClick={() => onAnswer(true)} data-autofocus>
          {submitLabel}
        </Button>
      </Group>
    </Modal>
  );
}
