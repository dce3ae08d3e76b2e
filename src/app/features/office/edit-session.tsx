import { Anchor, Button, Group, List, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useBlocker, useNavigate } from '@tanstack/react-router';
import { md5 } from 'hash-wasm';
import JSZip from 'jszip';
import { Suspense, lazy, useCallback, useEffect, useRef, useState, type ComponentType } from 'react';
import { createPortal } from 'react-dom';
import type { AreaQuery, FileEntry } from '../../../shared/api/drive';
import type { BrowserEditableExt, SavedOfficeFile } from '../../../shared/api/office';
import { OFFICE_SAVE_MSG } from '../../../shared/api/office';
import { joinName } from '../../../shared/drive/names';
import {
  countFeatures,
  lostFeatures,
  type FeatureCounts,
  type LostFeature,
  type PackageView,
} from '../../../shared/office/features';
import { tCore } from '../../lib/i18n-core';
import { tPreview } from '../../lib/i18n/preview';
import { saveOfficeFile } from '../../lib/office-save';
import { useOnline } from '../../lib/online';
import { OutboxRefusal } from '../../lib/outbox';
import type { EditorHandle, EditorProps } from './editor-types';
import { downloadHref } from './office-source';
import { ViewerLoading } from './viewer-state';

/*
 * One editing session of a docx or xlsx in the browser (no Document Server; issue 17 §1): the
 * editor, its 保存 button and state in the page's header, and the rules around saving.
 *
 * - Saving goes through the outbox (lib/office-save.ts): online at once, offline queued with its
 *   bytes on the device, replayed once when the network returns. The save names the content it
 *   continues from — the file as opened, then each save's own MD5 — so a later save never
 *   counts as a conflict with an earlier one of this session, queued or not.
 * - Before the first save, the package about to be saved is compared with the one opened
 *   (shared/office/features.ts): anything it holds fewer of (charts, comments, pivot tables…) is
 *   named, and the person chooses 仍然保存, 另存为新文件 (the original stays as it is) or 取消,
 *   with 下载原文件 at hand.
 * - A save the server turned into a conflict copy, or a copy asked for, moves the page to that
 *   file, and says so.
 * - Leaving with unsaved changes asks first (in-app navigation and closing the tab).
 */

const EDITORS: Record<BrowserEditableExt, ComponentType<EditorProps>> = {
  docx: lazy(() => import('./docx-editor')),
  xlsx: lazy(() => import('./xlsx-editor')),
};

const tt = tPreview.office;

async function packageOf(bytes: ArrayBuffer | Uint8Array): Promise<PackageView> {
  const zip = await JSZip.loadAsync(bytes);
  const names = Object.keys(zip.files).filter((n) => !zip.files[n]!.dir);
  return { names, text: async (name) => (await zip.file(name)?.async('string')) ?? null };
}

type Status =
  | { kind: 'clean' }
  | { kind: 'dirty' }
  | { kind: 'saving' }
  | { kind: 'saved'; at: string }
  | { kind: 'queued' }
  | { kind: 'failed'; message: string };

type LossChoice = 'save' | 'copy' | 'cancel';

export interface EditSessionProps {
  ext: BrowserEditableExt;
  bytes: ArrayBuffer;
  /** MD5 of `bytes` (the download's ETag), or null to compute it here. */
  md5: string | null;
  entry: FileEntry;
  area: AreaQuery;
  author: string;
  /** Where the 保存 button and the state go (a node in the page's header). */
  slot: HTMLElement | null;
  /** The editor could not open this file: show the viewer with this message. */
  onFail: (message: string) => void;
  /** The route's search, to move the page to a copy after a conflict. */
  search: Record<string, unknown>;
}

export default function EditSession(props: EditSessionProps) {
  const { ext, bytes, entry, area, slot, onFail } = props;
  const Editor = EDITORS[ext];
  const navigate = useNavigate();
  const online = useOnline();
  const name = joinName(entry.fileName, entry.extendName);

  const handle = useRef<EditorHandle | null>(null);
  const base = useRef<string | null>(props.md5);
  const features = useRef<Promise<FeatureCounts> | null>(null);
  const rev = useRef(0);
  const savedRev = useRef(0);
  const busy = useRef(false);
  const [status, setStatus] = useState<Status>({ kind: 'clean' });
  const [ready, setReady] = useState(false);
  const [loss, setLoss] = useState<{ lost: LostFeature[]; answer: (c: LossChoice) => void } | null>(null);
  const [gone, setGone] = useState<{ url: string; message: string } | null>(null);
  const dirty = () => rev.current !== savedRev.current;

  // What the opened package holds, and its MD5 when the download gave none.
  useEffect(() => {
    features.current = packageOf(bytes).then((pkg) => countFeatures(ext, pkg));
    features.current.catch(() => undefined);
    if (!base.current) void md5(new Uint8Array(bytes)).then((m) => (base.current ??= m));
  }, [bytes, ext]);

  const onChange = useCallback(() => {
    rev.current += 1;
    setStatus((s) => (s.kind === 'saving' ? s : { kind: 'dirty' }));
  }, []);
  const onReady = useCallback((h: EditorHandle) => {
    handle.current = h;
    setReady(true);
  }, []);

  const askLoss = (lost: LostFeature[]) =>
    new Promise<LossChoice>((resolve) => {
      setLoss({
        lost,
        answer: (c) => {
          setLoss(null);
          resolve(c);
        },
      });
    });

  const save = useCallback(async () => {
    const h = handle.current;
    if (!h || busy.current) return;
    busy.current = true;
    const from = rev.current;
    setStatus({ kind: 'saving' });
    try {
      const out = await h.save();
      let asCopy = false;
      // What would be lost, measured on the very bytes about to be saved.
      const before = await features.current?.catch(() => null);
      const after = before ? await countFeatures(ext, await packageOf(out)) : null;
      const lost = before && after ? lostFeatures(before, after) : [];
      if (lost.length) {
        const choice = await askLoss(lost);
        if (choice === 'cancel') {
          setStatus(dirty() ? { kind: 'dirty' } : { kind: 'clean' });
          return;
        }
        asCopy = choice === 'copy';
      }
      const sum = await md5(out);
      base.current ??= await md5(new Uint8Array(bytes));
      const result = await saveOfficeFile({
        area,
        userFileId: entry.userFileId,
        name,
        bytes: out,
        baseMd5: base.current,
        asCopy,
      });
      savedRev.current = from;
      if (!asCopy) {
        // The next save continues from these bytes, queued or not; nothing of the original is
        // left to warn about once it is saved.
        base.current = sum;
        if (after) features.current = Promise.resolve(after);
      }
      if (result.queued) {
        setStatus({ kind: 'queued' });
        return;
      }
      const saved = result.data as SavedOfficeFile;
      setStatus({ kind: 'saved', at: new Date().toTimeString().slice(0, 5) });
      if (saved.conflict || saved.copy) {
        // Saved: leaving for the copy must not ask about unsaved changes.
        busy.current = false;
        const copyName = joinName(saved.fileName, saved.extendName);
        notifications.show({
          color: saved.conflict ? 'orange' : 'green',
          autoClose: saved.conflict ? false : 6000,
          message: saved.conflict ? tt.conflictSaved(copyName) : tt.copySaved(copyName),
        });
        void navigate({
          to: '/onlyoffice',
          search: {
            ...props.search,
            userFileId: saved.userFileId,
            fileName: saved.fileName,
            extendName: saved.extendName,
            filePath: saved.filePath,
            ot: 'edit',
          },
          replace: true,
        });
      }
    } catch (err) {
      const message = err instanceof Error && err.message ? err.message : tCore.errors.server;
      setStatus({ kind: 'failed', message });
      if (err instanceof OutboxRefusal && message === OFFICE_SAVE_MSG.gone) {
        // The file is gone: the person's work must not be: offer it as a download.
        try {
          const out = await h.save();
          setGone({ url: URL.createObjectURL(new Blob([out as Uint8Array<ArrayBuffer>])), message });
        } catch {
          /* the editor itself failed: the message above says why */
        }
      } else {
        notifications.show({ color: 'red', autoClose: 5000, message: tt.saveFailed(message) });
      }
    } finally {
      busy.current = false;
      if (rev.current !== from) setStatus({ kind: 'dirty' });
    }
    // navigate and props.search change identity each render; the latest are what counts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [area, bytes, entry.userFileId, ext, name]);

  // Ctrl+S / ⌘S saves (before the editors or the browser take it).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 's') {
        e.preventDefault();
        e.stopPropagation();
        void save();
      }
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, [save]);

  const blocker = useBlocker({
    shouldBlockFn: () => dirty() || busy.current,
    enableBeforeUnload: () => dirty() || busy.current,
    withResolver: true,
  });

  useEffect(() => {
    const url = gone?.url;
    // Later than the download's start, which the click only begins.
    return () => void (url && setTimeout(() => URL.revokeObjectURL(url), 60_000));
  }, [gone]);

  const statusText =
    status.kind === 'dirty'
      ? tt.unsaved
      : status.kind === 'saving'
        ? tt.saving
        : status.kind === 'saved'
          ? tt.savedAt(status.at)
          : status.kind === 'queued'
            ? tt.queued
            : status.kind === 'failed'
              ? tt.saveFailed(status.message)
              : '';
  const controls = (
    <Group gap="xs" wrap="nowrap">
      {statusText && (
        <Text
          size="sm"
          c={status.kind === 'failed' ? 'red' : status.kind === 'queued' ? 'orange.8' : 'dimmed'}
          data-testid="office-save-status"
          data-status={status.kind}
          visibleFrom={status.kind === 'failed' || status.kind === 'queued' ? undefined : 'xs'}
          truncate="end"
          maw={260}
          title={statusText}
        >
          {statusText}
        </Text>
      )}
      <Tooltip label={tt.saveHint}>
        <Button
          leftSection={<IconDeviceFloppy size={18} />}
          onClick={() => void save()}
          loading={status.kind === 'saving'}
          disabled={!ready}
          data-testid="office-save"
        >
          {tt.save}
        </Button>
      </Tooltip>
    </Group>
  );

  return (
    <>
      {slot && createPortal(controls, slot)}
      {!online && (
        <Text size="sm" c="orange.8" px="md" py={4} bg="orange.0" data-testid="office-offline-note">
          {tt.queued}
        </Text>
      )}
      <Suspense fallback={<ViewerLoading />}>
        <Editor bytes={bytes} author={props.author} onChange={onChange} onReady={onReady} onFail={onFail} />
      </Suspense>

      <Modal
        opened={loss !== null}
        onClose={() => loss?.answer('cancel')}
        title={tt.lossTitle}
        closeButtonProps={{ 'aria-label': tt.closeLoss }}
        closeOnClickOutside={false}
        centered
        data-testid="office-loss-dialog"
      >
        <Stack gap="sm">
          <Text size="sm">{tt.lossIntro}</Text>
          <List size="sm" spacing={4} data-testid="office-loss-list">
            {loss?.lost.map((l) => (
              <List.Item key={l.feature}>{tt.lossItem(l.label, l.before, l.after)}</List.Item>
            ))}
          </List>
          <Text size="xs" c="dimmed">
            {tt.lossDeliberate}
          </Text>
          <Anchor href={downloadHref(area, entry.userFileId)} download="" size="sm">
            {tt.lossDownloadOriginal}
          </Anchor>
          <Group justify="flex-end" gap="xs" mt="xs">
            <Button variant="default" onClick={() => loss?.answer('cancel')}>
              {tt.cancel}
            </Button>
            <Button variant="light" onClick={() => loss?.answer('copy')}>
              {tt.lossSaveCopy}
            </Button>
            <Button color="red" onClick={() => loss?.answer('save')}>
              {tt.lossSaveAnyway}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal
        opened={blocker.status === 'blocked'}
        onClose={() => blocker.reset?.()}
        title={tt.leaveTitle}
        closeButtonProps={{ 'aria-label': tt.closeLeave }}
        closeOnClickOutside={false}
        centered
      >
        <Stack gap="sm">
          <Text size="sm">{tt.leaveBody}</Text>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => blocker.reset?.()}>
              {tt.leaveStay}
            </Button>
            <Button color="red" onClick={() => blocker.proceed?.()}>
              {tt.leaveDiscard}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal
        opened={gone !== null}
        onClose={() => setGone(null)}
        title={tt.goneTitle}
        closeButtonProps={{ 'aria-label': tt.closeGone }}
        closeOnClickOutside={false}
        centered
      >
        <Stack gap="sm">
          <Text size="sm">{gone?.message}</Text>
          <Group justify="flex-end">
            <Button component="a" href={gone?.url} download={name} onClick={() => setGone(null)}>
              {tt.downloadEdited}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
