import { createContext, useContext } from "react";
import type { ModalsApi } from "./types";

export const ModalsContext = createContext<ModalsApi | null>(null);

/** Opens the shared modals (message, question, inputs form, lightbox). */
export function useModals(): ModalsApi {
  const api = useContext(ModalsContext);
  if (!api) throw new Error("useModals must be used inside <ModalsProvider>");
  return api;
}
