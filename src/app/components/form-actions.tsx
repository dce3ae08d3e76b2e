import { Button, Group } from '@mantine/core';
import { t } from '../lib/i18n';

/** The 取消 / 保存 row at the foot of every dialog form; cancel is disabled while saving. */
export function FormActions({
  onCancel,
  saving,
  mt,
}: {
  onCancel: () => void;
  saving: boolean;
  mt?: string;
}) {
  return (
    <Group justify="flex-end" gap="sm" mt={mt}>
      <Button variant="default" onClick={onCancel} disabled={saving}>
        {t.common.cancel}
      </Button>
      <Button type="submit" loading={saving}>
        {t.common.save}
      </Button>
    </Group>
  );
}
