import { lazy, type ReactNode, Suspense, useCallback, useMemo, useRef, useState } from "react";
import { ModalsContext } from "./context";

// The modals (and Mantine's Modal with its focus trap and scroll lock) load with the first one opened,
// so screens that never open one, such as the public dashboard, do not download them.
const FormModal = lazy(async () => ({ default: (await import("./FormModal")).FormModal }));
const LightboxModal = lazy(async () => ({ default: (await import("./LightboxModal")).LightboxModal }));
const MessageModal = lazy(async () => ({ default: (await import("./MessageModal")).MessageModal }));
const QuestionModal = lazy(async () => ({ default: (await import("./QuestionModal")).QuestionModal }));

import type {
  FormModalOptions,
  FormModalValues,
  LightboxOptions,
  MessageModalOptions,
  ModalsApi,
  QuestionModalOptions,
} from "./types";

type Entry =
  | { id: number; opened: boolean; kind: "message"; options: MessageModalOptions; resolve: (v: undefined) => void }
  | { id: number; opened: boolean; kind: "question"; options: QuestionModalOptions; resolve: (v: boolean) => void }
  | {
      id: number;
      opened: boolean;
      kind: "form";
      options: FormModalOptions;
      resolve: (v: FormModalValues | null) => void;
    }
  | { id: number; opened: boolean; kind: "lightbox"; options: LightboxOptions; resolve: (v: undefined) => void };

type NewEntry = Entry extends infer E ? (E extends Entry ? Omit<E, "id" | "opened"> : never) : never;

/** Matches the modal close transition (docs/product.md §9: 200 ms) before a closed modal leaves the tree. */
const CLOSE_DELAY_MS = 200;

/** Holds the open modals and provides useModals(). */
export function ModalsProvider({ children }: { children: ReactNode }) {
  const [entries, setEntries] = useState<Entry[]>([]);
  const nextId = useRef(1);

  const open = useCallback((entry: NewEntry) => {
    const id = nextId.current++;
    setEntries((current) => [...current, { ...entry, id, opened: true } as Entry]);
  }, []);

  const close = useCallback((id: number) => {
    setEntries((current) => current.map((entry) => (entry.id === id ? { ...entry, opened: false } : entry)));
    window.setTimeout(() => setEntries((current) => current.filter((entry) => entry.id !== id)), CLOSE_DELAY_MS);
  }, []);

  const api = useMemo<ModalsApi>(
    () => ({
      message: (options) =>
        new Promise<void>((resolve) => open({ kind: "message", options, resolve: () => resolve() })),
      question: (options = {}) => new Promise<boolean>((resolve) => open({ kind: "question", options, resolve })),
      form: (options) => new Promise<FormModalValues | null>((resolve) => open({ kind: "form", options, resolve })),
      lightbox: (options) =>
        new Promise<void>((resolve) => open({ kind: "lightbox", options, resolve: () => resolve() })),
    }),
    [open],
  );

  return (
    <ModalsContext.Provider value={api}>
      {children}
      <Suspense fallback={null}>{entries.map(renderEntry)}</Suspense>
    </ModalsContext.Provider>
  );

  function renderEntry(entry: Entry) {
    switch (entry.kind) {
      case "message":
        return (
          <MessageModal
            key={entry.id}
            {...entry.options}
            opened={entry.opened}
            onClose={() => {
              entry.resolve(undefined);
              close(entry.id);
            }}
          />
        );
      case "question":
        return (
          <QuestionModal
            key={entry.id}
            {...entry.options}
            opened={entry.opened}
            onAnswer={(answer) => {
              entry.resolve(answer);
              close(entry.id);
            }}
          />
        );
      case "form":
        return (
          <FormModal
            key={entry.id}
            {...entry.options}
            opened={entry.opened}
            onDone={(values) => {
              entry.resolve(values);
              close(entry.id);
            }}
          />
        );
      case "lightbox":
        return (
          <LightboxModal
            key={entry.id}
            {...entry.options}
            opened={entry.opened}
            onClose={() => {
              entry.resolve(undefined);
              close(entry.id);
            }}
          />
        );
      default:
        return null;
    }
  }
}
