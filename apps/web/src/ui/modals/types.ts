import type { ReactNode } from "react";

export interface MessageModalOptions {
  title?: ReactNode;
  message: ReactNode;
  buttonLabel?: string;
}

export interface QuestionModalOptions {
  /** Default: 'Are you sure you want to delete this row' (docs/product.md §2). */
  title?: ReactNode;
  message?: ReactNode;
  /** Default 'Submit'. */
  submitLabel?: string;
  /** Default 'Cancel'. */
  cancelLabel?: string;
  /** Paints the submit button red for destructive questions. */
  danger?: boolean;
}

export type FormInputKind = "text" | "email" | "password" | "number" | "textarea" | "select";

export interface FormModalInput {
  name: string;
  label: string;
  kind?: FormInputKind;
  required?: boolean;
  placeholder?: string;
  description?: string;
  options?: Array<{ value: string; label: string }>;
  defaultValue?: string | number;
  min?: number;
  max?: number;
}

export type FormModalValues = Record<string, string | number | null>;

export interface FormModalOptions {
  title: ReactNode;
  description?: ReactNode;
  inputs: FormModalInput[];
  /** Default 'Submit'. */
  submitLabel?: string;
  /** Default 'Cancel'. */
  cancelLabel?: string;
}

export interface LightboxOptions {
  src: string;
  kind: "image" | "video";
  title?: string;
  alt?: string;
}

/** The modals of docs/product.md §2, opened imperatively; each resolves when the modal closes. */
export interface ModalsApi {
  message(options: MessageModalOptions): Promise<void>;
  /** Resolves true on Submit, false on Cancel or close. */
  question(options?: QuestionModalOptions): Promise<boolean>;
  /** Resolves the values on Submit, null on Cancel or close. */
  form(options: FormModalOptions): Promise<FormModalValues | null>;
  lightbox(options: LightboxOptions): Promise<void>;
}

export const DEFAULT_QUESTION_TITLE = "Are you sure you want to delete this row";
