import {
  IconBuildingWarehouse,
  IconCalendar,
  IconFileText,
  IconInbox,
  IconPlane,
  IconReceipt,
  IconSend,
  IconShoppingCart,
  IconRubberStamp,
  type Icon,
} from '@tabler/icons-react';

/** The template icons the seeded templates name (shared/workflow/seed-flows.ts); others draw a document. */
const TEMPLATE_ICONS: Record<string, Icon> = {
  calendar: IconCalendar,
  plane: IconPlane,
  receipt: IconReceipt,
  stamp: IconRubberStamp,
  'shopping-cart': IconShoppingCart,
  'building-warehouse': IconBuildingWarehouse,
  send: IconSend,
  inbox: IconInbox,
  'file-text': IconFileText,
};

export function TemplateIcon({ name, size = 22 }: { name: string; size?: number }) {
  const I = TEMPLATE_ICONS[name] ?? IconFileText;
  return <I size={size} stroke={1.6} />;
}
