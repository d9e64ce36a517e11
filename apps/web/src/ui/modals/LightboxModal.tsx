import { Image, Modal } from "@mantine/core";
import type { LightboxOptions } from "./types";

interface Props extends LightboxOptions {
  opened: boolean;
  onClose: () => void;
}

/** Shows one image or video at a large size. */
export function LightboxModal({ opened, onClose, src, kind, title, alt }: Props) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size="auto"
      withCloseButton
      closeButtonProps={{ "aria-label": "Close" }}
      styles={{ body: { display: "flex", justifyContent: "center" } }}
    >
      {kind === "image" ? (
        <Image src={src} alt={alt ?? title ?? ""} fit="contain" mah="80vh" maw="min(90vw, 1200px)" radius="md" />
      ) : (
        // biome-ignore lint/a11y/useMediaCaption: user-supplied videos come without caption tracks.
        <video
          src={src}
          controls
          autoPlay
          style={{ maxHeight: "80vh", maxWidth: "min(90vw, 1200px)", borderRadius: 8 }}
        />
      )}
    </Modal>
  );
}
