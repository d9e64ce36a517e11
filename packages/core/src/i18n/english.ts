import en from "./messages/en.json";
import type { Messages } from "./translator";

/** The source catalogue, for what shows English without loading a language (the web app's plain English). */
export const ENGLISH: Messages = en;
