import { Button, Group } from '@mantine/core';
import { tCore } from '../lib/i18n-core';

/**
 * The 取消 / 保存 (or 确定) row at the foot of every dialog. Cancel is disabled while the work
 * runs. Without `onSubmit` the main button submits its form; with it, it is a plain button.
 */
export function FormActions(props: {
  onCancel: () => void;
  saving: boolean;
  mt?: string;
  submitLabel?: string;
  onSubmit?: () => void;
  submitDisabled?: boolean;
  submitColor?: string;
}) {
  return (
    <Group justify="flex-end" gap="sm" mt={props.mt}>
      <Button variant="default" onClick={props.onCancel} disabled={props.saving}>
        {tCore.common.cancel}
      </Button>
      <Button
        type={props.onSubmit ? 'button' : 'submit'}
        onClick={props.onSubmit}
        loading={props.saving}
        disabled={props.submitDisabled}
        color={props.submitColor}
      >
        {props.submitLabel ?? tCore.common.save}
      </Button>
    </Group>
  );
}
