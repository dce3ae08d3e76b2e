import { Alert, Button, Group, SimpleGrid, Stack, Switch, TextInput, Textarea } from '@mantine/core';
import { DatePickerInput, TimeInput } from '@mantine/dates';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { SCHEDULE, ScheduleSave, type ScheduleItem } from '../../../shared/api/schedule';
import { formatMuseumMinute } from '../../../shared/rules/museum-time';
import { confirmAction } from '../../components/confirm-action';
import { FormActions } from '../../components/form-actions';
import { errorToast } from '../../lib/api';
import { tCore } from '../../lib/i18n-core';
import { tOffline } from '../../lib/i18n/offline';
import { tSchedule } from '../../lib/i18n/schedule';
import { scheduleWrites } from './schedule-data';

const S = tSchedule;
const F = S.fields;

interface EditorValues {
  title: string;
  allDay: boolean;
  startDate: string | null;
  startClock: string;
  endDate: string | null;
  endClock: string;
  location: string;
  remark: string;
}

/** Where each error of the request body shows in the form. */
function fieldOf(path: string, allDay: boolean): keyof EditorValues {
  if (path === 'startTime') return allDay ? 'startDate' : 'startClock';
  if (path === 'endTime') return allDay ? 'endDate' : 'endClock';
  return path as keyof EditorValues;
}

function bodyOf(v: EditorValues): ScheduleSave {
  const at = (date: string | null, clock: string, allDayClock: string) =>
    date ? `${date} ${v.allDay ? allDayClock : clock}` : '';
  return {
    title: v.title,
    allDay: v.allDay,
    startTime: at(v.startDate, v.startClock, '00:00'),
    endTime: at(v.endDate, v.endClock, '23:59'),
    location: v.location,
    remark: v.remark,
  };
}

/** A new item's first guess: the next full hour for an hour when the day is today, else 09:00–10:00. */
function defaults(date: string): Pick<EditorValues, 'startClock' | 'endClock'> {
  const now = formatMuseumMinute(Date.now());
  if (now.slice(0, 10) !== date) return { startClock: '09:00', endClock: '10:00' };
  const hour = Math.min(Number(now.slice(11, 13)) + 1, 23);
  const hh = String(hour).padStart(2, '0');
  return {
    startClock: `${hh}:00`,
    endClock: hour === 23 ? '23:59' : `${String(hour + 1).padStart(2, '0')}:00`,
  };
}

function initialValues(item: ScheduleItem | null, date: string): EditorValues {
  if (!item)
    return {
      title: '',
      allDay: false,
      startDate: date,
      endDate: date,
      location: '',
      remark: '',
      ...defaults(date),
    };
  return {
    title: item.title,
    allDay: item.allDay,
    startDate: item.startTime.slice(0, 10),
    startClock: item.startTime.slice(11),
    endDate: item.endTime.slice(0, 10),
    endClock: item.endTime.slice(11),
    location: item.location,
    remark: item.remark,
  };
}

function notifyDone(message: string, queued: boolean) {
  notifications.show(
    queued
      ? { color: 'yellow', message: tOffline.queuedToast, autoClose: 4000 }
      : { color: 'green', message },
  );
}

/**
 * 新建 / 编辑日程 in a modal: title, all-day, start and end (museum time), place, remark, and
 * 删除 with a confirmation when editing. Saving goes through the outbox: offline it is kept on
 * the device and shows at once as 待同步. The form checks with the server's own schema, and a
 * refusal stays in the dialog with the server's words. Mounted afresh for each opening.
 */
export function ScheduleEditor({
  item,
  date,
  onClose,
}: {
  /** The item to edit, or null for a new one on `date`. */
  item: ScheduleItem | null;
  date: string;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<EditorValues>({
    initialValues: initialValues(item, date),
    validate: (values) => {
      const parsed = ScheduleSave.safeParse(bodyOf(values));
      const errors: Record<string, string> = {};
      for (const issue of parsed.error?.issues ?? [])
        errors[fieldOf(issue.path.map(String).join('.'), values.allDay)] ??= issue.message;
      return errors;
    },
  });

  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    setRefusal(null);
    try {
      const body = bodyOf(values);
      const result = item ? await scheduleWrites.update(item.id, body) : await scheduleWrites.save(body);
      notifyDone(item ? S.saved : S.added, result.queued);
      onClose();
    } catch (err) {
      setRefusal(err instanceof Error ? err.message : tCore.errors.server);
      setBusy(false);
    }
  });

  const remove = (target: ScheduleItem) =>
    confirmAction({
      title: S.deleteTitle,
      message: S.deleteConfirm(target.title),
      confirmLabel: tCore.common.delete,
      danger: true,
      run: () =>
        scheduleWrites.remove(target).then(
          (result) => {
            notifyDone(S.deleted, result.queued);
            onClose();
          },
          (err: unknown) => {
            errorToast(err instanceof Error ? err.message : tCore.errors.server);
            throw err;
          },
        ),
    });

  const allDay = form.values.allDay;
  return (
    <form onSubmit={submit} noValidate data-testid="schedule-editor">
      <Stack gap="sm">
        <TextInput
          label={F.title}
          placeholder={F.titlePlaceholder}
          withAsterisk
          maxLength={SCHEDULE.titleMax}
          data-autofocus
          {...form.getInputProps('title')}
        />
        <Switch label={F.allDay} {...form.getInputProps('allDay', { type: 'checkbox' })} />
        <SimpleGrid cols={2} spacing="sm">
          <DatePickerInput
            label={F.startDate}
            valueFormat="YYYY-MM-DD"
            withAsterisk
            {...form.getInputProps('startDate')}
          />
          {!allDay && <TimeInput label={F.startClock} withAsterisk {...form.getInputProps('startClock')} />}
          <DatePickerInput
            label={F.endDate}
            valueFormat="YYYY-MM-DD"
            withAsterisk
            {...form.getInputProps('endDate')}
          />
          {!allDay && <TimeInput label={F.endClock} withAsterisk {...form.getInputProps('endClock')} />}
        </SimpleGrid>
        <TextInput
          label={F.location}
          placeholder={F.locationPlaceholder}
          maxLength={SCHEDULE.locationMax}
          {...form.getInputProps('location')}
        />
        <Textarea
          label={F.remark}
          placeholder={F.remarkPlaceholder}
          autosize
          minRows={2}
          maxRows={5}
          maxLength={SCHEDULE.remarkMax}
          {...form.getInputProps('remark')}
        />
        {refusal && (
          <Alert color="red" variant="light" role="alert">
            {refusal}
          </Alert>
        )}
        <Group justify="space-between" mt="xs">
          {item ? (
            <Button
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={16} />}
              onClick={() => remove(item)}
              disabled={busy}
            >
              {tCore.common.delete}
            </Button>
          ) : (
            <span />
          )}
          <FormActions onCancel={onClose} saving={busy} />
        </Group>
      </Stack>
    </form>
  );
}
