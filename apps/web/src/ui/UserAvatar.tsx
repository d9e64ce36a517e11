import type { TUser } from "@app/core";
import { Avatar, type AvatarProps } from "@mantine/core";

/** The user's picture, or their initials on the brand colour. */
export function UserAvatar({ user, ...props }: AvatarProps & { user: Pick<TUser, "name" | "avatar"> }) {
  return <Avatar src={user.avatar} alt={user.name} name={user.name} color="initials" radius="xl" {...props} />;
}
