import { Button, type ButtonProps } from "@mantine/core";
import { type ComponentPropsWithoutRef, useCallback, useEffect, useRef, useState } from "react";
import { IconCheck, IconX } from "./icons";

export type Feedback = "idle" | "done" | "failed";

/** docs/product.md §9: an interactive button shows 'Done' or 'Failed' for 500 ms. */
export const FEEDBACK_MS = 500;

/** Holds a button's short-lived Done/Failed state. */
export function useFeedback(): { feedback: Feedback; flash: (result: Exclude<Feedback, "idle">) => void } {
  const [feedback, setFeedback] = useState<Feedback>("idle");
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const flash = useCallback((result: Exclude<Feedback, "idle">) => {
    window.clearTimeout(timer.current);
    setFeedback(result);
    timer.current = window.setTimeout(() => setFeedback("idle"), FEEDBACK_MS);
  }, []);
  return { feedback, flash };
}

type Props = ButtonProps & Omit<ComponentPropsWithoutRef<"button">, keyof ButtonProps> & { feedback: Feedback };

/** A button that briefly reads 'Done' or 'Failed' after its action. */
export function FeedbackButton({ feedback, children, color, leftSection, ...props }: Props) {
  if (feedback === "idle") {
    return (
      <Button color={color} leftSection={leftSection} {...props}>
        {children}
      </Button>
    );
  }
  const done = feedback === "done";
  return (
    <Button {...props} color={done ? "teal" : "red"} leftSection={done ? <IconCheck size={16} /> : <IconX size={16} />}>
      {done ? "Done" : "Failed"}
    </Button>
  );
}
