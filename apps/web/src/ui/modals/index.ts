export { useModals } from "./context";
export { ModalsProvider } from "./ModalsProvider";
export type * from "./types";
export { DEFAULT_QUESTION_TITLE } from "./types";
