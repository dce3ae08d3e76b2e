import { ThemeIcon } from '@mantine/core';
import {
  IconBuildingWarehouse,
  IconCalendar,
  IconCar,
  IconFileText,
  IconInbox,
  IconPlane,
  IconReceipt,
  IconSend,
  IconRubberStamp,
  IconShoppingCart,
  IconTool,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';

/** The small set of template icons (the seeded templates use the first six, send, inbox and file-text). */
const ICONS = {
  calendar: IconCalendar,
  plane: IconPlane,
  receipt: IconReceipt,
  stamp: IconRubberStamp,
  'shopping-cart': IconShoppingCart,
  'building-warehouse': IconBuildingWarehouse,
  'file-text': IconFileText,
  tool: IconTool,
  car: IconCar,
  users: IconUsers,
  send: IconSend,
  inbox: IconInbox,
} satisfies Record<string, Icon>;

export type TemplateIconName = keyof typeof ICONS;
export const TEMPLATE_ICONS = Object.keys(ICONS) as TemplateIconName[];

/** A template's icon; an unknown name (an older or hand-made template) shows the file icon. */
export function TemplateIcon({ name, plain }: { name: string; plain?: boolean }) {
  const Glyph = ICONS[name as TemplateIconName] ?? IconFileText;
  if (plain) return <Glyph size={20} />;
  return (
    <ThemeIcon variant="light" size="lg" radius="md">
      <Glyph size={20} />
    </ThemeIcon>
  );
}
