import { Center, Loader } from "@mantine/core";

export type LoaderSize = "s" | "m" | "l";

const SIZES: Record<LoaderSize, "sm" | "md" | "xl"> = { s: "sm", m: "md", l: "xl" };

/** Loader in the product's three sizes (s, m, l). */
export function AppLoader({ size = "m", label = "Loading" }: { size?: LoaderSize; label?: string }) {
  return <Loader size={SIZES[size]} type="dots" aria-label={label} role="status" />;
}

/** A loader centred in the content area while a screen's data arrives. */
export function PageLoader() {
  return (
    <Center mih={240}>
      <AppLoader size="l" />
    </Center>
  );
}
