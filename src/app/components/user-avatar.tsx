import { Avatar, type AvatarProps } from '@mantine/core';

/**
 * What an avatar without a photo shows. Chinese office apps show the given name: 张国华 → 国华,
 * 王芳 → 王芳; longer names (系统管理员) show their first two characters.
 */
export function avatarText(name: string): string {
  const n = name.trim();
  if (n.length <= 2) return n;
  if (n.length === 3) return n.slice(1);
  return n.slice(0, 2);
}

/**
 * A person's avatar: their photo, or their name's characters on a colour derived from the name.
 * The characters are near-black on the pale tint: the tint's own dark shade (teal, lime,
 * orange…) falls under 4.5:1 at this size.
 */
export function UserAvatar({
  name,
  image,
  ...rest
}: { name: string; image?: string } & Omit<AvatarProps, 'src' | 'name'>) {
  return (
    <Avatar
      src={image || null}
      alt={name}
      name={name}
      color="initials"
      radius="xl"
      vars={() => ({ root: { '--avatar-color': 'var(--mantine-color-dark-7)' } })}
      {...rest}
    >
      {avatarText(name)}
    </Avatar>
  );
}
