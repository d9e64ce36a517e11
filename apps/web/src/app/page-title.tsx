import { createContext, useContext, useEffect } from "react";

/** Lets a screen whose route has a null title (dashboard, user, group pages) name itself. */
export const PageTitleContext = createContext<(title: string | null) => void>(() => {});

/** Sets the screen's own title part of the document title while the screen is shown. */
export function usePageTitle(title: string | null | undefined): void {
  const setTitle = useContext(PageTitleContext);
  useEffect(() => {
    setTitle(title ?? null);
    return () => setTitle(null);
  }, [title, setTitle]);
}
