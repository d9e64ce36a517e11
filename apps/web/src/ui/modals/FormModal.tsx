import { isFilled } from "@app/core";
import { Button, Group, Modal, PasswordInput, Stack, Text, Textarea, TextInput } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { NumberField } from "../NumberField";
import { SelectInput } from "../SelectInput";
import type { FormModalInput, FormModalOptions, FormModalValues } from "./types";

interface Props extends FormModalOptions {
  opened: boolean;
  onDone: (values: FormModalValues | null) => void;
}

function initialValues(inputs: FormModalInput[]): FormModalValues {
  return Object.fromEntries(
    inputs.map((input) => [input.name, input.defaultValue ?? (input.kind === "number" ? null : "")]),
  );
}

/** A form of inputs whose Submit stays disabled until every required input is filled (docs/product.md §2, §5). */
export function FormModal({
  opened,
  onDone,
  title,
  description,
  inputs,
  submitLabel = "Submit",
  cancelLabel = "Cancel",
}: Props) {
  const [values, setValues] = useState<FormModalValues>(() => initialValues(inputs));
  const complete = inputs.every((input) => !input.required || isFilled(values[input.name]));
  const set = (name: string, value: string | number | null) => setValues((current) => ({ ...current, [name]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (complete) onDone(values);
  };

  return (
    <Modal opened={opened} onClose={() => onDone(null)} title={title} size="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {description ? typeof description === "string" ? <Text c="dimmed">{description}</Text> : description : null}
          {inputs.map((input, index) => {
            const common = {
              label: input.label,
              description: input.description,
              placeholder: input.placeholder,
              required: input.required,
              "data-autofocus": index === 0 ? true : undefined,
            };
            const value = values[input.name];
            switch (input.kind) {
              case "textarea":
                return (
                  <Textarea
                    key={input.name}
                    {...common}
                    autosize
                    minRows={3}
                    value={String(value ?? "")}
                    onChange={(event) => set(input.name, event.currentTarget.value)}
                  />
                );
              case "password":
                return (
                  <PasswordInput
                    key={input.name}
                    {...common}
                    value={String(value ?? "")}
                    onChange={(event) => set(input.name, event.currentTarget.value)}
                  />
                );
              case "number":
                return (
                  <NumberField
                    key={input.name}
                    {...common}
                    min={input.min}
                    max={input.max}
                    value={typeof value === "number" ? value : null}
                    onValueChange={(next) => set(input.name, next)}
                  />
                );
              case "select":
                return (
                  <SelectInput
                    key={input.name}
                    {...common}
                    data={input.options ?? []}
                    value={typeof value === "string" && value ? value : null}
                    onChange={(next) => set(input.name, next ?? "")}
                  />
                );
              default:
                return (
                  <TextInput
                    key={input.name}
                    {...common}
                    type={input.kind === "email" ? "email" : "text"}
                    value={String(value ?? "")}
                    onChange={(event) => set(input.name, event.currentTarget.value)}
                  />
                );
            }
          })}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={() => onDone(null)}>
              {cancelLabel}
            </Button>
            <Button type="submit" disabled={!complete}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
