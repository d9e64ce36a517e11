import { type NumberInputLimits, normaliseNumberInput } from "@app/core";
import { NumberInput, type NumberInputProps } from "@mantine/core";
import { useEffect, useState } from "react";

export interface NumberFieldProps
  extends Omit<NumberInputProps, "value" | "onChange" | "onValueChange" | "min" | "max" | "step"> {
  value: number | null;
  onValueChange: (value: number | null) => void;
  min?: number;
  max?: number;
  step?: number;
}

/** Number input applying the docs/product.md §5 rules (whole numbers, step multiples, min/max) when the field is left. */
export function NumberField({ value, onValueChange, min, max, step, onBlur, ...props }: NumberFieldProps) {
  const [raw, setRaw] = useState<string | number>(value ?? "");

  // Follow values set from outside (a reset, a server answer).
  useEffect(() => {
    setRaw((current) => (Number(current) === value && current !== "" ? current : (value ?? "")));
  }, [value]);

  const limits: NumberInputLimits = { min, max, step };

  return (
    <NumberInput
      {...props}
      min={min}
      max={max}
      step={step}
      allowDecimal={false}
      clampBehavior="none"
      value={raw}
      onChange={(next) => {
        setRaw(next);
        onValueChange(typeof next === "number" ? next : null);
      }}
      onBlur={(event) => {
        const normalised = normaliseNumberInput(raw, limits);
        setRaw(normalised ?? "");
        onValueChange(normalised);
        onBlur?.(event);
      }}
    />
  );
}
