import { Group, Image, Text } from "@mantine/core";
import { SelectInput, type SelectInputProps } from "./SelectInput";

export interface ImageOption {
  value: string;
  label: string;
  image: string;
}

export interface ImageSelectProps extends Omit<SelectInputProps, "data" | "renderOption"> {
  options: ImageOption[];
}

/** Select of images (media library); 'No media available' when there is nothing to pick. */
export function ImageSelect({ options, nothingFoundMessage = "No media available", ...props }: ImageSelectProps) {
  const images = new Map(options.map((option) => [option.value, option.image]));
  return (
    <SelectInput
      {...props}
      nothingFoundMessage={nothingFoundMessage}
      data={options.map(({ value, label }) => ({ value, label }))}
      renderOption={({ option }) => (
        <Group gap="sm" wrap="nowrap">
          <Image src={images.get(option.value)} alt="" w={40} h={28} radius="sm" fit="cover" />
          <Text size="sm">{option.label}</Text>
        </Group>
      )}
    />
  );
}
