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

/** Lets a public dashboard name its owner's site title (white label) for the document title. */
export const SiteTitleContext = createContext<(siteTitle: string | null) => void>(() => {});

/** Sets the owning company's site title while a public viewer's screen is shown. */
export function useSiteTitle(siteTitle: string | null | undefined): void {
  const setSiteTitle = useContext(SiteTitleContext);
  useEffect(() => {
    setSiteTitle(siteTitle ?? null);
    return () => setSiteTitle(null);
  }, [siteTitle, setSiteTitle]);
}
