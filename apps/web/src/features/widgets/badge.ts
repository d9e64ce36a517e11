import type { TWidget } from "@app/core";
import { createContext, type ReactNode } from "react";

/**
 * What a card shows beside its title for its widget, given by the screen that knows more than the card
 * (the member's dashboard: the firing alerts' bell). Null (the default) on the public, embed and print
 * views, which never show one, and which so never load the code that draws it.
 */
export const WidgetBadgeContext = createContext<((widget: TWidget) => ReactNode) | null>(null);
