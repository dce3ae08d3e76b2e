import {
  Alert,
  Button,
  Chip,
  Group,
  Modal,
  MultiSelect,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { FileEntry } from '../../../../shared/api/drive';
import type { ShareResult, UserLookupRow } from '../../../../shared/api/share';
import { joinName } from '../../../../shared/drive/names';
import {
  EXPIRY_SHORTCUTS,
  SHARE_MAX_DAYS,
  formatMuseumTime,
  isExpired,
  parseMuseumTime,
  shortcutEndTime,
  type ExpiryShortcut,
} from '../../../../shared/drive/share-rules';
import { FormActions } from '../../../components/form-actions';
import { OfflineError } from '../../../lib/api';
import { tCore } from '../../../lib/i18n-core';
import { tShare } from '../../../lib/i18n/share';
import { DIALOG_WIDTH, type DialogResult } from '../../../components/dialog-kit';
import { ShareField } from './share-field';
import { copyText, shareCalls, shareCopyText, shareKeys, shareLink } from './share-data';

const T = tShare.dialog;
const S = tShare.send;

/** Why an end time cannot be used, or null (spec §5: required, yyyy-MM-dd HH:mm:ss, in the future). */
export function endTimeProblem(endTime: string | null, nowMs: number): string | null {
  if (!endTime) return T.expiryRequired;
  const ms = parseMuseumTime(endTime);
  if (ms === null) return T.expiryRequired;
  if (isExpired(ms, nowMs)) return T.expiryPast;
  if (ms - nowMs > SHARE_MAX_DAYS * 86_400_000) return T.expiryTooFar(SHARE_MAX_DAYS);
  return null;
}

const messageOf = (err: unknown) =>
  err instanceof OfflineError ? T.offline : err instanceof Error ? err.message : tCore.errors.server;

export interface ShareDialogProps {
  opened: boolean;
  items: FileEntry[];
  onClose: (result: DialogResult) => void;
}

/**
 * 分享文件 (550 px; spec §2, §4 "Share dialog", §5): expiry (required, with 今天 / 1天 / 7天 /
 * 30天 and a date-time picker), with or without an extraction code, remarks. The success view
 * shows the link and the code; 复制链接 copies the share text (复制成功！). A share without a
 * code can then be sent to colleagues as a notice. Sharing needs the network: it is not queued,
 * since a link made later would not be the one the person meant to hand over now.
 * Times are museum time (UTC+8), which the picker shows as it is.
 */
export function ShareDialog({ opened, items, onClose }: ShareDialogProps) {
  const queryClient = useQueryClient();
  const [endTime, setEndTime] = useState<string | null>(null);
  const [shortcut, setShortcut] = useState<ExpiryShortcut | null>(null);
  const [withCode, setWithCode] = useState(true);
  const [remarks, setRemarks] = useState('');
  const [expiryError, setExpiryError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ShareResult | null>(null);
  // The picker offers museum days from today on (a later check refuses a past time of today).
  const [today] = useState(() => formatMuseumTime(Date.now()).slice(0, 10));

  const first = items[0];
  const what = first ? T.what(items.length, joinName(first.fileName, first.extendName)) : '';

  const pick = (s: ExpiryShortcut) => {
    setShortcut(s);
    setEndTime(shortcutEndTime(s, Date.now()));
    setExpiryError(null);
  };

  const submit = async () => {
    const problem = endTimeProblem(endTime, Date.now());
    setExpiryError(problem);
    if (problem || !endTime) return;
    setBusy(true);
    setError(null);
    try {
      const r = await shareCalls.create({
        files: items.map((i) => ({ userFileId: i.userFileId })),
        endTime,
        shareType: withCode ? 1 : 0,
        remarks: remarks.trim(),
      });
      setResult(r);
      void queryClient.invalidateQueries({ queryKey: shareKeys.mine });
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const close = () => {
    if (!busy) onClose(result ? 'confirm' : 'cancel');
  };

  return (
    <Modal opened={opened} onClose={close} title={T.title} size={DIALOG_WIDTH.standard} closeOnEscape={!busy}>
      {result ? (
        <ShareDone result={result} onClose={close} />
      ) : (
        <Stack gap="md" data-testid="share-form">
          <Text size="sm" c="dimmed" style={{ wordBreak: 'break-all' }}>
            {what}
          </Text>
          <ShareField label={T.expiry} htmlFor="share-end-time" error={expiryError}>
            <Stack gap={8}>
              <Chip.Group value={shortcut ?? ''} onChange={(v) => pick(v as ExpiryShortcut)}>
                <Group gap={6} aria-label={T.shortcutsLabel} role="group">
                  {EXPIRY_SHORTCUTS.map((s) => (
                    <Chip key={s} value={s} size="sm" data-testid={`expiry-${s}`}>
                      {T.shortcuts[s]}
                    </Chip>
                  ))}
                </Group>
              </Chip.Group>
              <DateTimePicker
                id="share-end-time"
                aria-label={T.expiry}
                placeholder={T.expiryPlaceholder}
                value={endTime}
                onChange={(v) => {
                  setEndTime(v);
                  setShortcut(null);
                  setExpiryError(null);
                }}
                valueFormat="YYYY-MM-DD HH:mm:ss"
                withSeconds
                clearable
                minDate={today}
                error={Boolean(expiryError)}
                data-testid="share-end-time"
              />
            </Stack>
          </ShareField>
          <ShareField label={T.kind}>
            <Stack gap={4}>
              <SegmentedControl
                value={withCode ? '1' : '0'}
                onChange={(v) => setWithCode(v === '1')}
                aria-label={T.kind}
                data={[
                  { value: '1', label: T.withCode },
                  { value: '0', label: T.withoutCode },
                ]}
                data-testid="share-kind"
              />
              <Text size="xs" c="dimmed">
                {withCode ? T.withCodeHint : T.withoutCodeHint}
              </Text>
            </Stack>
          </ShareField>
          <ShareField label={T.remarks} htmlFor="share-remarks">
            <Textarea
              id="share-remarks"
              aria-label={T.remarks}
              placeholder={T.remarksPlaceholder}
              value={remarks}
              onChange={(e) => setRemarks(e.currentTarget.value)}
              maxLength={200}
              autosize
              minRows={2}
              maxRows={4}
            />
          </ShareField>
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <FormActions onCancel={close} saving={busy} onSubmit={() => void submit()} submitLabel={T.submit} />
        </Stack>
      )}
    </Modal>
  );
}

/** The success view: link, code, 复制链接, and for a share without a code, sending it to colleagues. */
function ShareDone({ result, onClose }: { result: ShareResult; onClose: () => void }) {
  const link = shareLink(result.shareBatchNum);
  const copy = async () => {
    const ok = await copyText(shareCopyText(result.shareBatchNum, result.extractionCode));
    notifications.show(ok ? { color: 'green', message: T.copied } : { color: 'red', message: T.copyFailed });
  };
  return (
    <Stack gap="md" data-testid="share-done">
      <Alert color="green" variant="light" title={T.doneTitle}>
        {T.validUntil(result.endTime)}
      </Alert>
      <ShareField label={T.link} htmlFor="share-link">
        <TextInput
          id="share-link"
          aria-label={T.link}
          value={link}
          readOnly
          onFocus={(e) => e.currentTarget.select()}
          data-testid="share-link"
        />
      </ShareField>
      {result.extractionCode && (
        <ShareField label={T.code} htmlFor="share-code">
          <TextInput
            id="share-code"
            aria-label={T.code}
            value={result.extractionCode}
            readOnly
            w={140}
            styles={{ input: { fontFamily: 'monospace', letterSpacing: 2 } }}
            data-testid="share-code"
          />
        </ShareField>
      )}
      {!result.extractionCode && <SendToUsers result={result} />}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          {T.close}
        </Button>
        <Button onClick={() => void copy()} data-action="share-copy">
          {T.copy}
        </Button>
      </Group>
    </Stack>
  );
}

/** 发送给同事: people found by name or phone get the share text as a notice. */
function SendToUsers({ result }: { result: ShareResult }) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [chosen, setChosen] = useState<string[]>([]);
  const [known, setKnown] = useState<Map<string, UserLookupRow>>(() => new Map());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<number | null>(null);

  const found = useQuery({
    queryKey: ['share', 'lookup', debounced],
    enabled: debounced.length > 0,
    queryFn: async ({ signal }) => {
      const rows = await shareCalls.lookup(debounced, signal);
      setKnown((m) => new Map([...m, ...rows.map((r) => [String(r.userId), r] as const)]));
      return rows;
    },
  });
  const label = (u: UserLookupRow) => `${u.userName}（${[u.deptName, u.phone].filter(Boolean).join(' ')}）`;
  // The chosen people stay listed while the search shows others.
  const ids = new Set([...chosen, ...(found.data ?? []).map((u) => String(u.userId))]);
  const data = [...ids].flatMap((id) => {
    const u = known.get(id);
    return u ? [{ value: id, label: label(u) }] : [];
  });

  const send = async () => {
    if (chosen.length === 0) {
      setError(S.need);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await shareCalls.sendToUsers({
        noticeContent: shareCopyText(result.shareBatchNum, result.extractionCode),
        receiver: chosen.map(Number),
      });
      setSent(chosen.length);
      notifications.show({ color: 'green', message: S.done(chosen.length) });
      setChosen([]);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap={6} data-testid="share-send">
      <Text size="sm" fw={600}>
        {S.title}
      </Text>
      <Text size="xs" c="dimmed">
        {S.hint}
      </Text>
      <MultiSelect
        aria-label={S.label}
        placeholder={S.placeholder}
        data={data}
        value={chosen}
        onChange={(v) => {
          setChosen(v);
          setError(null);
        }}
        searchable
        searchValue={search}
        onSearchChange={setSearch}
        // The server already matched name or phone; show every row it answered.
        filter={({ options }) => options}
        nothingFoundMessage={
          debounced.length === 0 ? S.typeToSearch : found.isFetching ? S.searching : S.none
        }
        maxValues={200}
        data-testid="share-receivers"
      />
      {error && (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      )}
      {sent !== null && (
        <Text size="xs" c="green" data-testid="share-sent">
          {S.done(sent)}
        </Text>
      )}
      <Group justify="flex-end">
        <Button variant="light" onClick={() => void send()} loading={busy} data-action="share-send">
          {S.submit}
        </Button>
      </Group>
    </Stack>
  );
}
