import {
  Anchor,
  Badge,
  Button,
  Drawer,
  Group,
  Image,
  Modal,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconFileExport, IconPencil, IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useRouterState } from '@tanstack/react-router';
import { useState } from 'react';
import type { ApplyDetail, ApplyRow } from '../../shared/api/collection';
import { APPLY_REASON_MAX } from '../../shared/api/collection';
import type { RecordNames, RecordRow } from '../../shared/records/api';
import {
  APPLY_KINDS,
  APPLY_STATES,
  COLLECTION_WRITE,
  bsDigitalassetsInfo,
  collectionApplyForm,
} from '../../shared/records/collection/collection';
import { dictKeysOf } from '../../shared/records/define';
import { formatMuseumTime } from '../../shared/rules/museum-time';
import { OfflineNote } from '../components/offline-note';
import { RecordForm, RecordListPage, useGrant } from '../features/records';
import { errorToast, museum } from '../lib/api';
import { useCachedQuery } from '../lib/cached-query';
import { tCollection } from '../lib/i18n/collection';
import { useDictionaries } from '../lib/records';

/**
 * The collection's pages (issue 24, README "Collection (issue 24)"): 藏品资料 (readers),
 * 藏品资料管理 (keepers ask for 新增/修改 through a data approval), 数据管理 / 数据审核 (the
 * applies: mine, or those I review, each opening its approval to decide) and 数据提取 (my
 * extracts and their originals). Lists and opened details are the engine's cached views (kept
 * on the device with their sync time); the reduced images are kept by the service worker.
 */

const C = tCollection;
const def = bsDigitalassetsInfo;

/** 申请提取原图: the reason, then an approval (高清图提取审批). */
function ExtractDialog({ row, onClose }: { row: RecordRow | null; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  async function submit() {
    if (!reason.trim()) {
      setError(C.reasonRequired);
      return;
    }
    setBusy(true);
    try {
      await museum.post('/bsDigitalassetsApply/extract', { id: row!.id, applyReason: reason.trim() });
      notifications.show({ color: 'green', message: C.submitted });
      setReason('');
      onClose();
    } catch (err) {
      errorToast(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal
      opened={row !== null}
      onClose={onClose}
      title={row ? C.extractTitle(def.describe(row)) : ''}
      closeOnClickOutside={false}
    >
      <Stack gap="sm">
        <Textarea
          label={C.extractReason}
          placeholder={C.extractReasonPlaceholder}
          required
          autosize
          minRows={3}
          maxLength={APPLY_REASON_MAX}
          value={reason}
          error={error || null}
          onChange={(e) => {
            setReason(e.currentTarget.value);
            setError('');
          }}
          data-testid="extract-reason"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {C.cancel}
          </Button>
          <Button loading={busy} onClick={() => void submit()} data-testid="extract-submit">
            {C.submit}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

const hasImages = (row: RecordRow) => Array.isArray(row.images) && row.images.length > 0;

/** 藏品资料: everyone who holds the route reads; 申请提取原图 on a row with images. */
export function CollectionPage() {
  const [extract, setExtract] = useState<RecordRow | null>(null);
  return (
    <>
      <RecordListPage
        def={def}
        title={C.readersTitle}
        intro={C.readersIntro}
        rowActions={(row) =>
          hasImages(row)
            ? [{ key: 'extract', label: C.applyExtract, icon: IconFileExport, run: () => setExtract(row) }]
            : []
        }
      />
      <ExtractDialog row={extract} onClose={() => setExtract(null)} />
    </>
  );
}

/** 藏品资料管理: the keepers' list; 申请新增 and 申请修改 open the form of a data approval. */
export function CollectionManagementPage() {
  const keeper = useGrant(COLLECTION_WRITE);
  const dicts = useDictionaries(dictKeysOf(def));
  const [form, setForm] = useState<{ row: RecordRow | null; names: RecordNames; nonce: number } | null>(null);
  const [open, setOpen] = useState(false);
  const [extract, setExtract] = useState<RecordRow | null>(null);
  const show = (row: RecordRow | null, names: RecordNames = { users: {}, depts: {} }) => {
    setForm({ row, names, nonce: Date.now() });
    setOpen(true);
  };
  // A change starts from the stored row with its images' names (the detail's).
  const edit = async (row: RecordRow) => {
    try {
      const d = await museum.get<{ record: RecordRow; names: RecordNames }>(`${def.base}/detail`, {
        query: { id: row.id },
      });
      show(d.record, d.names);
    } catch (err) {
      errorToast(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <>
      <RecordListPage
        def={def}
        title={C.manageTitle}
        intro={C.manageIntro}
        extra={
          keeper && (
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={() => show(null)}
              data-testid="collection-apply-add"
            >
              {C.applyAdd}
            </Button>
          )
        }
        rowActions={(row) => [
          ...(keeper
            ? [{ key: 'applyEdit', label: C.applyEdit, icon: IconPencil, run: () => void edit(row) }]
            : []),
          ...(hasImages(row)
            ? [{ key: 'extract', label: C.applyExtract, icon: IconFileExport, run: () => setExtract(row) }]
            : []),
        ]}
      />
      {form && (
        <RecordForm
          key={form.nonce}
          def={collectionApplyForm}
          row={form.row ? { ...form.row, applyReason: '' } : null}
          names={form.names}
          options={dicts.options}
          opened={open}
          onClose={() => setOpen(false)}
        />
      )}
      <ExtractDialog row={extract} onClose={() => setExtract(null)} />
    </>
  );
}

const kindLabel = (v: number) => APPLY_KINDS.find((k) => k.value === v)?.label ?? '';
const stateOf = (v: number) => APPLY_STATES.find((k) => k.value === v);
const time = (ms: number | null) => (ms ? formatMuseumTime(ms) : '');

function useApplies(role: 1 | 2, kind: number | undefined, page: number) {
  const query = { applyRole: role, ...(kind ? { applyKind: kind } : {}), currentPage: page, pageCount: 20 };
  return useCachedQuery<{ list: ApplyRow[]; total: number }>({
    queryKey: ['collection-applies', query],
    fetch: ({ signal }) =>
      museum.get<{ list: ApplyRow[]; total: number }>('/bsDigitalassetsApply/pageList', {
        query,
        signal,
        silent: true,
      }),
  });
}

function ApplyDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const view = useCachedQuery<ApplyDetail>({
    queryKey: ['collection-apply', id ?? 0],
    enabled: id !== null,
    fetch: ({ signal }) =>
      museum.get<ApplyDetail>('/bsDigitalassetsApply/detail', {
        query: { id: id ?? 0 },
        signal,
        silent: true,
      }),
  });
  const d = view.data;
  return (
    <Drawer
      opened={id !== null}
      onClose={onClose}
      position="right"
      size={560}
      title={d ? `${kindLabel(d.kind)}：${d.registerNo} ${d.name}` : ''}
      closeButtonProps={{ 'aria-label': C.closeDetail }}
    >
      {d && (
        <Stack gap="sm" data-testid="apply-detail">
          <OfflineNote view={view} />
          <Group gap="xs">
            <Badge color={stateOf(d.status)?.color}>{stateOf(d.status)?.label}</Badge>
            <Text size="sm" c="dimmed">
              {d.applicantName} · {time(d.createTime)}
            </Text>
          </Group>
          <Text size="sm">
            {C.reason}：{d.applyReason}
          </Text>
          {d.changes.length > 0 && (
            <Table withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{C.changes}</Table.Th>
                  <Table.Th>{C.before}</Table.Th>
                  <Table.Th>{C.after}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {d.changes.map((c) => (
                  <Table.Tr key={c.field}>
                    <Table.Td>{c.label}</Table.Td>
                    <Table.Td>{c.before}</Table.Td>
                    <Table.Td>{c.after}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {d.kind === 3 && (
            <Text size="sm" c="dimmed">
              {d.status !== 2
                ? C.notYet
                : d.images.some((i) => i.downloadPath)
                  ? `${C.expires(time(d.expiresAt))}，${C.downloads(d.downloadCount)}`
                  : C.expired}
            </Text>
          )}
          {d.images.length > 0 && (
            <Group gap="xs">
              {d.images.map((img) => (
                <Stack key={img.attId} gap={2} align="center">
                  <Image src={img.attPath} alt={img.attName} w={96} h={96} fit="cover" radius="sm" />
                  {img.downloadPath && (
                    <Anchor href={img.downloadPath} size="xs" data-testid="extract-download">
                      <IconDownload size={12} /> {C.download}
                    </Anchor>
                  )}
                </Stack>
              ))}
            </Group>
          )}
        </Stack>
      )}
    </Drawer>
  );
}

/**
 * 数据管理 (my applies), 数据审核 (`?role=2`: those I review; 去审批 opens the approval to decide)
 * and 数据提取 (my extracts).
 */
function AppliesPage({ role, kind, title }: { role: 1 | 2; kind?: number; title: string }) {
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState(kind ? String(kind) : '');
  const [openId, setOpenId] = useState<number | null>(null);
  const qc = useQueryClient();
  const view = useApplies(role, filter ? Number(filter) : undefined, page);
  const rows = view.data?.list ?? [];
  const total = view.data?.total ?? 0;
  return (
    <Stack p="md" gap="sm">
      <Group justify="space-between">
        <Title order={3}>{title}</Title>
        <OfflineNote view={view} />
      </Group>
      {!kind && (
        <SegmentedControl
          value={filter}
          onChange={(v) => {
            setFilter(v);
            setPage(1);
            void qc.invalidateQueries({ queryKey: ['collection-applies'] });
          }}
          data={[
            { value: '', label: C.all },
            ...APPLY_KINDS.map((k) => ({ value: String(k.value), label: k.label })),
          ]}
        />
      )}
      <Table striped highlightOnHover data-testid="applies">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{C.kind}</Table.Th>
            <Table.Th>{C.registerNo}</Table.Th>
            <Table.Th>{C.name}</Table.Th>
            <Table.Th>{C.applicant}</Table.Th>
            <Table.Th>{C.time}</Table.Th>
            <Table.Th>{C.status}</Table.Th>
            <Table.Th>{C.actions}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.id}>
              <Table.Td>{kindLabel(r.kind)}</Table.Td>
              <Table.Td>{r.registerNo}</Table.Td>
              <Table.Td>{r.name}</Table.Td>
              <Table.Td>{r.applicantName}</Table.Td>
              <Table.Td>{time(r.createTime)}</Table.Td>
              <Table.Td>
                <Badge color={stateOf(r.status)?.color}>{stateOf(r.status)?.label}</Badge>
              </Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Anchor component="button" size="sm" onClick={() => setOpenId(r.id)}>
                    {C.detail}
                  </Anchor>
                  {r.awaitingMe && r.actvityId && (
                    <Anchor
                      size="sm"
                      href={`/approve/process-pending?state=pending&actvityId=${r.actvityId}`}
                      data-testid="apply-decide"
                    >
                      {C.decide}
                    </Anchor>
                  )}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {view.status === 'ready' && !rows.length && (
        <Text c="dimmed" ta="center">
          {C.empty}
        </Text>
      )}
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {C.total(total)}
        </Text>
        <Group gap="xs">
          <Button variant="default" size="xs" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {C.prev}
          </Button>
          <Button variant="default" size="xs" disabled={page * 20 >= total} onClick={() => setPage(page + 1)}>
            {C.next}
          </Button>
        </Group>
      </Group>
      <ApplyDrawer id={openId} onClose={() => setOpenId(null)} />
    </Stack>
  );
}

/** /data/manage (mine) and /data/manage?role=2 (to review): one route, the query decides. */
export function DataManagePage() {
  const raw = useRouterState({ select: (s) => (s.location.search as { role?: unknown }).role });
  const role = String(raw ?? '') === '2' ? 2 : 1;
  return <AppliesPage key={role} role={role} title={role === 2 ? C.reviewTitle : C.manageTitleList} />;
}

/** /data/manage/extract: my extracts and their originals. */
export function DataExtractPage() {
  return <AppliesPage role={1} kind={3} title={C.extractPageTitle} />;
}
