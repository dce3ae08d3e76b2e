import {
  Alert,
  Button,
  Group,
  Modal,
  NumberInput,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { DASHBOARD_BASE, TourRecordSave } from '../../../shared/api/dashboards';
import { museumDate } from '../../../shared/rules/museum-time';
import { museum } from '../../lib/api';
import { tDashboards } from '../../lib/i18n/dashboards';
import { useOnline } from '../../lib/online';

const T = tDashboards;

/** The form's problems by field, from the same schema the server checks with. */
export function entryProblems(values: Record<string, unknown>): Record<string, string> {
  const r = TourRecordSave.safeParse(values);
  if (r.success) return {};
  const out: Record<string, string> = {};
  for (const i of r.error.issues) {
    const key = String(i.path[0] ?? 'form');
    out[key] ??= i.message;
  }
  return out;
}

/**
 * 补录观众人数 (预约总览's grant): a gate counter's reading or visitors registered outside the
 * system, for a day up to today. Checked here with the server's schema; the server's refusal
 * (a day too far back, rights) shows at the top. Online only: a typed figure is not urgent, and
 * the statistics' owner sits at the office.
 */
export function TourEntry({ onClose, onSaved }: { onClose: () => void; onSaved: () => void }) {
  const online = useOnline();
  const [today] = useState(() => museumDate(Date.now()));
  const [values, setValues] = useState({
    date: today,
    source: '4',
    count: '' as number | string,
    minorCount: 0 as number | string,
    teamCount: 0 as number | string,
    remark: '',
  });
  const [shown, setShown] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState('');
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof values) => (v: unknown) => setValues((x) => ({ ...x, [k]: v ?? '' }));

  async function save() {
    const problems = entryProblems(values);
    if (values.date > today) problems.date ??= `日期不能晚于今天（${today}）`;
    setShown(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    setRefusal('');
    try {
      await museum.post(`${DASHBOARD_BASE}/tourRecord/save`, values, { silent: true });
      notifications.show({ color: 'teal', message: T.saved });
      onSaved();
      onClose();
    } catch (e) {
      setRefusal(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened onClose={onClose} title={T.enterTitle} closeOnClickOutside={false} centered>
      <Stack gap="sm" data-testid="tour-entry">
        <Text size="xs" c="dimmed">
          {T.enterNote}
        </Text>
        {!online && <Alert color="yellow">{T.offlineEntry}</Alert>}
        {refusal && (
          <Alert color="red" data-testid="tour-entry-refusal">
            {refusal}
          </Alert>
        )}
        <DatePickerInput
          label={T.date}
          required
          valueFormat="YYYY-MM-DD"
          maxDate={today}
          value={values.date}
          onChange={set('date')}
          error={shown.date}
        />
        <div>
          <Text size="sm" fw={500} mb={4}>
            {T.source}
          </Text>
          <SegmentedControl
            value={values.source}
            onChange={set('source')}
            data={[
              { value: '3', label: T.walkIn },
              { value: '4', label: T.manual },
            ]}
          />
          {shown.source && (
            <Text size="xs" c="red">
              {shown.source}
            </Text>
          )}
        </div>
        <Group grow align="flex-start">
          <NumberInput
            label={T.count}
            required
            min={1}
            allowDecimal={false}
            value={values.count}
            onChange={set('count')}
            error={shown.count}
          />
          <NumberInput
            label={T.minorCount}
            min={0}
            allowDecimal={false}
            value={values.minorCount}
            onChange={set('minorCount')}
            error={shown.minorCount}
          />
          <NumberInput
            label={T.teamCount}
            min={0}
            allowDecimal={false}
            value={values.teamCount}
            onChange={set('teamCount')}
            error={shown.teamCount}
          />
        </Group>
        <Textarea
          label={T.remark}
          required
          maxLength={200}
          placeholder={T.remarkPlaceholder}
          value={values.remark}
          onChange={(e) => set('remark')(e.currentTarget.value)}
          error={shown.remark}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {T.cancel}
          </Button>
          <Button onClick={() => void save()} loading={busy} disabled={!online} data-testid="tour-entry-save">
            {T.save}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
