import {
  Alert,
  NumberInput,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  SimpleGrid,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconInfoCircle } from '@tabler/icons-react';
import { useMemo } from 'react';
import {
  ADDRESS_BOOK,
  AddressBookSave,
  AddressBookUpdate,
  entryKindProblem,
  type AddressBookEntry,
  type DirectoryDept,
} from '../../../shared/api/directory';
import { FormActions } from '../../components/form-actions';
import { zodValidate } from '../../lib/form';
import { tCore } from '../../lib/i18n-core';
import { tDirectory } from '../../lib/i18n/directory';
import { directoryApi, useDirectoryWrite } from './directory-data';

const F = tDirectory.manage.fields;

/** The form's values: the request body, with the department as the Select's string. */
interface EntryValues {
  name: string;
  deptId: string | null;
  mobile: string;
  position: string;
  officePhone: string;
  email: string;
  sort: number | string;
  remark: string;
  hidden: boolean;
}

/** The schema a submission must pass: the shared one of its call, with the rule of its kind. */
function schemaFor(row: AddressBookEntry | null) {
  const staff = row !== null && row.userId !== null;
  if (row?.id == null) return AddressBookSave;
  return AddressBookUpdate.superRefine((v, ctx) => {
    const problem = entryKindProblem(staff, v);
    if (problem) ctx.addIssue({ code: 'custom', path: [problem.path], message: problem.message });
  });
}

/**
 * 新增 / 编辑联系人. An external contact has every field; a member of staff shows the name,
 * mobile and departments of their account read-only (人员管理 owns them) and takes the rest.
 * The first save of a member of staff creates their extension, later ones update it.
 */
export function EntryForm({
  row,
  departments,
  onDone,
}: {
  /** The row being edited, or null to add an external contact. */
  row: AddressBookEntry | null;
  departments: readonly DirectoryDept[];
  onDone: () => void;
}) {
  const staff = row !== null && row.userId !== null;
  const schema = useMemo(() => schemaFor(row), [row]);
  const form = useForm<EntryValues>({
    initialValues: {
      name: staff ? '' : (row?.name ?? ''),
      deptId: !staff && row?.deptIds[0] ? String(row.deptIds[0]) : null,
      mobile: staff ? '' : (row?.mobile ?? ''),
      position: row?.position ?? '',
      officePhone: row?.officePhone ?? '',
      email: row?.email ?? '',
      sort: row?.sort ?? 0,
      remark: row?.remark ?? '',
      hidden: row?.hidden ?? false,
    },
    validate: (values) => zodValidate(schema)(bodyOf(values)),
  });
  const save = useDirectoryWrite(directoryApi.save);
  const update = useDirectoryWrite(directoryApi.update);
  const saving = save.isPending || update.isPending;
  const deptData = useMemo(
    () => departments.map((d) => ({ value: String(d.id), label: `${'　'.repeat(d.depth)}${d.name}` })),
    [departments],
  );

  function bodyOf(v: EntryValues) {
    return {
      ...v,
      deptId: v.deptId === null ? null : Number(v.deptId),
      sort: v.sort === '' ? 0 : v.sort,
      ...(row?.id != null ? { id: row.id } : { userId: row?.userId ?? null }),
    };
  }

  const submit = form.onSubmit((values) => {
    const key = crypto.randomUUID();
    const done = () => {
      notifications.show({ color: 'green', message: row ? tCore.common.saved : tCore.common.added });
      onDone();
    };
    const body = bodyOf(values);
    if (row?.id != null) update.mutate({ vars: AddressBookUpdate.parse(body), key }, { onSuccess: done });
    else save.mutate({ vars: AddressBookSave.parse(body), key }, { onSuccess: done });
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {staff ? (
          <Alert variant="light" icon={<IconInfoCircle size={18} />} data-testid="org-fields">
            <Text size="sm" fw={600}>
              {row.name}
              {row.mobile && ` · ${row.mobile}`}
              {row.deptNames.length > 0 && ` · ${row.deptNames.join('、')}`}
            </Text>
            <Text size="xs" c="dimmed">
              {tDirectory.manage.fromOrg}
            </Text>
          </Alert>
        ) : (
          <>
            <TextInput
              label={F.name}
              placeholder={F.namePlaceholder}
              withAsterisk
              maxLength={ADDRESS_BOOK.nameMax}
              data-autofocus
              {...form.getInputProps('name')}
            />
            <Select
              label={F.dept}
              placeholder={F.deptPlaceholder}
              data={deptData}
              searchable
              clearable
              {...form.getInputProps('deptId')}
            />
          </>
        )}
        <TextInput
          label={F.position}
          placeholder={F.positionPlaceholder}
          maxLength={ADDRESS_BOOK.positionMax}
          {...form.getInputProps('position')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          {!staff && (
            <TextInput
              label={F.mobile}
              placeholder={F.mobilePlaceholder}
              inputMode="tel"
              maxLength={11}
              {...form.getInputProps('mobile')}
            />
          )}
          <TextInput
            label={F.officePhone}
            placeholder={F.officePhonePlaceholder}
            inputMode="tel"
            maxLength={20}
            {...form.getInputProps('officePhone')}
          />
          <TextInput
            label={F.email}
            placeholder={F.emailPlaceholder}
            inputMode="email"
            maxLength={ADDRESS_BOOK.emailMax}
            {...form.getInputProps('email')}
          />
          <NumberInput
            label={F.sort}
            description={F.sortHint}
            min={0}
            max={ADDRESS_BOOK.sortMax}
            allowDecimal={false}
            allowNegative={false}
            {...form.getInputProps('sort')}
          />
        </SimpleGrid>
        <Textarea
          label={F.remark}
          placeholder={F.remarkPlaceholder}
          autosize
          minRows={2}
          maxRows={4}
          maxLength={ADDRESS_BOOK.remarkMax}
          {...form.getInputProps('remark')}
        />
        <Switch
          label={F.hidden}
          description={F.hiddenHint}
          {...form.getInputProps('hidden', { type: 'checkbox' })}
        />
        <FormActions onCancel={onDone} saving={saving} mt="xs" />
      </Stack>
    </form>
  );
}
