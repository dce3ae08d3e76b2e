import { Alert, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { RecordDetail } from '../../shared/records/api';
import { type Field } from '../../shared/records/define';
import { createSchema } from '../../shared/records/schemas';
import { appointSetting } from '../../shared/records/reservation/setting';
import { useGrant } from '../features/records';
import { FieldInput, initialValues, toBody, type FormValues } from '../features/records/field-input';
import { errorToast, museum } from '../lib/api';
import { tReservationSettings } from '../lib/i18n/reservation-settings';
import { fieldErrorsOf, recordKeys, writeRecord } from '../lib/records';

/**
 * 基本信息 (/reservation/basic-info): the reservation settings (AppointSetting load / save,
 * records-design §7.1) as one page of grouped fields rather than a drawer — a museum reads and
 * changes these together, and each group says what it governs. Empty numbers mean §7.1's
 * defaults (each field's help names its default). Checked with the record's own schema before
 * sending; the server's per-field refusals (停止入馆时间须晚于开馆时间 …) show under their field.
 */

const S = tReservationSettings;

/** The groups of §7.1, in the order a museum thinks about them. */
const GROUPS: readonly { title: string; hint: string; keys: readonly string[] }[] = [
  {
    title: S.hours,
    hint: S.hoursHint,
    keys: ['openTime', 'lastEntryTime', 'closeTime', 'closedWeekdays', 'specialDates'],
  },
  {
    title: S.booking,
    hint: S.bookingHint,
    keys: [
      'advanceDays',
      'releaseTime',
      'sameDayCutoffMinutes',
      'maxPersonsPerOrder',
      'maxMinorsPerOrder',
      'minorAge',
      'accountMaxBookings30d',
      'onePerIdPerDay',
    ],
  },
  { title: S.cancel, hint: S.cancelHint, keys: ['cancelDeadline', 'arrivalToleranceMinutes'] },
  {
    title: S.noShow,
    hint: S.noShowHint,
    keys: ['noShowLimit', 'noShowWindowDays', 'blockDays', 'cancelCountsAsNoShow'],
  },
  {
    title: S.team,
    hint: S.teamHint,
    keys: [
      'teamMin',
      'teamMax',
      'teamMinAdvanceDays',
      'teamMinorMax',
      'teamAdultMinorRatio',
      'teamNeedsApproval',
    ],
  },
  { title: S.notices, hint: S.noticesHint, keys: ['notice', 'teamNotice'] },
];

const fieldsOf = (keys: readonly string[]): Record<string, Field> =>
  Object.fromEntries(keys.map((k) => [k, (appointSetting.fields as Record<string, Field>)[k]!]));

/** Wide inputs (a list, long text) take the whole row of their group. */
const wide = (fd: Field) => fd.kind === 'list' || fd.kind === 'textarea' || fd.kind === 'rich';

/** 儿童体验馆 › 预约设置 (/applet-management/setting): the same rules, shared by both venues. */
export function ChildrenHallSettingsPage() {
  return <ReservationSettingsPage title={S.childrenTitle} intro={S.childrenIntro} />;
}

export function ReservationSettingsPage({
  title = S.title,
  intro = S.intro,
}: {
  title?: string;
  intro?: string;
}) {
  const key = [...recordKeys.all(appointSetting), 'load'];
  const load = useQuery({
    queryKey: key,
    queryFn: () => museum.get<RecordDetail>(`${appointSetting.base}/load`, { silent: true }),
  });
  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'md' }} data-testid="reservation-settings">
      <Title order={3}>{title}</Title>
      <Text size="sm" c="dimmed">
        {intro}
      </Text>
      {load.error && <Alert color="red">{load.error.message}</Alert>}
      {load.data && <SettingsForm key={load.dataUpdatedAt} detail={load.data} queryKey={key} />}
    </Stack>
  );
}

function SettingsForm({ detail, queryKey }: { detail: RecordDetail; queryKey: readonly unknown[] }) {
  const qc = useQueryClient();
  const writer = useGrant(appointSetting.access.write);
  const all = appointSetting.fields;
  const [values, setValues] = useState<FormValues>(() =>
    initialValues(all, detail.record.id ? detail.record : null, detail.names),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  async function save() {
    const body = toBody(all, values);
    const parsed = createSchema(appointSetting).safeParse(body);
    if (!parsed.success) {
      const e: Record<string, string> = {};
      for (const i of parsed.error.issues) e[String(i.path[0] ?? '')] ??= i.message;
      setErrors(e);
      errorToast(S.fixFirst);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const r = await writeRecord(appointSetting, appointSetting.calls.save!, body, {
        action: 'update',
        id: detail.record.id || undefined,
        body,
        label: S.saveLabel,
      });
      notifications.show({ color: r.queued ? 'yellow' : 'green', message: r.queued ? S.queued : S.saved });
      if (!r.queued) void qc.invalidateQueries({ queryKey });
    } catch (err) {
      const f = fieldErrorsOf(err);
      if (f) {
        setErrors(f);
        errorToast(S.fixFirst);
      } else errorToast(err instanceof Error ? err.message : String(err));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <Stack gap="md">
        {!writer && <Alert color="gray">{S.readOnly}</Alert>}
        {GROUPS.map((g) => (
          <Card key={g.title} withBorder radius="md" data-testid={`settings-group-${g.keys[0]}`}>
            <Stack gap="sm">
              <div>
                <Title order={5}>{g.title}</Title>
                <Text size="xs" c="dimmed">
                  {g.hint}
                </Text>
              </div>
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
                {Object.entries(fieldsOf(g.keys)).map(([name, fd]) => (
                  <div key={name} style={wide(fd) ? { gridColumn: '1 / -1' } : undefined}>
                    <FieldInput
                      name={name}
                      fd={fd}
                      value={values[name]}
                      onChange={(v) => {
                        setValues((p) => ({ ...p, [name]: v }));
                        if (errors[name]) setErrors((p) => ({ ...p, [name]: '' }));
                      }}
                      error={errors[name] || null}
                      options={{}}
                      table={appointSetting.name}
                      names={detail.names}
                    />
                  </div>
                ))}
              </SimpleGrid>
            </Stack>
          </Card>
        ))}
        {writer && (
          <Group justify="flex-end" pos="sticky" bottom={0} py="sm" bg="var(--mantine-color-body)">
            <Button type="submit" loading={saving} leftSection={<IconDeviceFloppy size={16} />}>
              {S.save}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
