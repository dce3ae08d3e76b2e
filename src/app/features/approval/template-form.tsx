import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { dialogs } from '../../lib/dialogs';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import {
  FIELD_TYPES,
  type FieldType,
  type FormField,
  type StarterNode,
} from '../../../shared/workflow/definition';
import { walk } from '../../../shared/workflow/paths';
import { tCore } from '../../lib/i18n-core';
import { tDesigner } from '../../lib/i18n/designer';
import { moveItem, newField, nextOptionKey } from '../../lib/workflow-designer';

const F = tDesigner.form;

/** Whether any branch condition reads the field `id`. */
function usedByConditions(root: StarterNode, id: string): boolean {
  return walk(root).some(({ node }) => node.type === 3 && node.conditionList.some((c) => c.columnId === id));
}

/**
 * The form builder (表单设计): add fields of every type the definition knows, rename, mark
 * required, edit choices and the duration unit, reorder and remove. A field's id is made once
 * when it is added and never shown for editing, so conditions and stored requests keep pointing
 * at it whatever the label becomes.
 */
export function TemplateForm({
  fields,
  root,
  onChange,
}: {
  fields: readonly FormField[];
  root: StarterNode;
  onChange: (fields: FormField[]) => void;
}) {
  const set = (i: number, patch: Partial<FormField>) =>
    onChange(fields.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  const remove = (i: number) => {
    const f = fields[i]!;
    const drop = () => onChange(fields.filter((_, j) => j !== i));
    if (!usedByConditions(root, f.id)) return drop();
    dialogs.openConfirmModal({
      title: F.remove,
      children: <Text size="sm">{F.removeUsed(f.label)}</Text>,
      labels: { confirm: tCore.common.delete, cancel: tCore.common.cancel },
      confirmProps: { color: 'red' },
      closeOnClickOutside: false,
      onConfirm: drop,
    });
  };

  return (
    <Stack gap="md" data-testid="template-form">
      <Stack gap={6}>
        <Text size="sm" fw={500}>
          {F.add}
        </Text>
        <SimpleGrid cols={{ base: 3, sm: 6 }} spacing={6}>
          {FIELD_TYPES.map((type: FieldType) => (
            <Button
              key={type}
              size="xs"
              variant="light"
              leftSection={<IconPlus size={12} />}
              onClick={() => onChange([...fields, newField(type, fields, F.types[type])])}
            >
              {F.types[type]}
            </Button>
          ))}
        </SimpleGrid>
      </Stack>
      {fields.length === 0 && (
        <Text c="dimmed" size="sm" ta="center" py="lg">
          {F.empty}
        </Text>
      )}
      {fields.map((f, i) => (
        <Card key={f.id} withBorder radius="md" p="sm" data-testid="form-field">
          <Stack gap="xs">
            <Group justify="space-between" wrap="nowrap">
              <Group gap="xs">
                <Badge variant="light">{F.types[f.type]}</Badge>
                <Text size="xs" c="dimmed">
                  {F.id(f.id)}
                </Text>
              </Group>
              <Group gap={0} wrap="nowrap">
                <ActionIcon
                  variant="subtle"
                  aria-label={F.moveUp}
                  disabled={i === 0}
                  onClick={() => onChange([...moveItem(fields, i, -1)])}
                >
                  <IconArrowUp size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  aria-label={F.moveDown}
                  disabled={i === fields.length - 1}
                  onClick={() => onChange([...moveItem(fields, i, 1)])}
                >
                  <IconArrowDown size={16} />
                </ActionIcon>
                <ActionIcon variant="subtle" color="red" aria-label={F.remove} onClick={() => remove(i)}>
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            </Group>
            <Group gap="sm" align="flex-end" wrap="wrap">
              <TextInput
                label={F.label}
                value={f.label}
                maxLength={30}
                withAsterisk
                error={f.label.trim() ? null : tCore.common.required}
                onChange={(e) => set(i, { label: e.currentTarget.value })}
                style={{ flex: '1 1 200px' }}
              />
              {(f.type === 'text' || f.type === 'textarea' || f.type === 'number' || f.type === 'amount') && (
                <TextInput
                  label={F.placeholder}
                  value={f.placeholder ?? ''}
                  maxLength={60}
                  onChange={(e) => set(i, { placeholder: e.currentTarget.value || undefined })}
                  style={{ flex: '1 1 200px' }}
                />
              )}
              {f.type === 'dateRange' && (
                <Select
                  label={F.unit}
                  allowDeselect={false}
                  value={String(f.unit ?? 1)}
                  data={[
                    { value: '0', label: F.unitHours },
                    { value: '1', label: F.unitDays },
                  ]}
                  onChange={(v) => v && set(i, { unit: Number(v) as 0 | 1 })}
                  w={110}
                />
              )}
              <Switch
                label={F.required}
                checked={f.required}
                onChange={(e) => set(i, { required: e.currentTarget.checked })}
                mb={8}
              />
            </Group>
            {(f.type === 'radio' || f.type === 'checkbox') && (
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  {F.options}
                </Text>
                {(f.options ?? []).map((o, k) => (
                  <Group key={o.key} gap="xs" wrap="nowrap">
                    <TextInput
                      aria-label={`${F.options}${k + 1}`}
                      value={o.value}
                      maxLength={60}
                      error={o.value.trim() ? null : tCore.common.required}
                      onChange={(e) => {
                        const value = e.currentTarget.value;
                        set(i, { options: f.options!.map((x, j) => (j === k ? { ...x, value } : x)) });
                      }}
                      style={{ flex: 1 }}
                    />
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={tCore.common.delete}
                      disabled={(f.options ?? []).length <= 1}
                      onClick={() => set(i, { options: f.options!.filter((_, j) => j !== k) })}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Group>
                ))}
                <Button
                  size="xs"
                  variant="subtle"
                  leftSection={<IconPlus size={12} />}
                  w="fit-content"
                  disabled={(f.options ?? []).length >= 50}
                  onClick={() => {
                    const options = f.options ?? [];
                    const key = nextOptionKey(options);
                    set(i, { options: [...options, { key, value: `选项${key}` }] });
                  }}
                >
                  {F.addOption}
                </Button>
              </Stack>
            )}
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
