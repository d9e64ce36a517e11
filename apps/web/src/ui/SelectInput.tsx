import { Select, type SelectProps } from "@mantine/core";
import { useState } from "react";

export const REQUIRED_MESSAGE = "Please fill out this field.";

export interface SelectInputProps extends SelectProps {
  /** Show the required message even before the field was visited (after a submit attempt). */
  showRequiredError?: boolean;
}

/** Select of docs/product.md §2: 'Nothing found' when no option matches; 'Please fill out this field.' when required and empty. */
export function SelectInput({
  nothingFoundMessage = "Nothing found",
  searchable = true,
  showRequiredError = false,
  required,
  value,
  error,
  onBlur,
  ...props
}: SelectInputProps) {
  const [touched, setTouched] = useState(false);
  const empty = value === null || value === undefined || value === "";
  const requiredError = required && empty && (touched || showRequiredError) ? REQUIRED_MESSAGE : undefined;

  return (
    <Select
      {...props}
      value={value}
      required={required}
      searchable={searchable}
      nothingFoundMessage={nothingFoundMessage}
      error={error ?? requiredError}
      onBlur={(event) => {
        setTouched(true);
        onBlur?.(event);
      }}
    />
  );
}
