import { Button, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef, useState } from 'react';
import type { FileEntry } from '../../../shared/api/drive';
import { UNZIP_RECENT_MAX, type UnzipJob } from '../../../shared/api/unzip';
import { ROOT, joinName } from '../../../shared/drive/names';
import { ApiError, drive } from '../../lib/api';
import { tUnzip } from '../../lib/i18n/unzip';
import type { SubmitResult } from '../../lib/outbox';
import { DIALOG_WIDTH } from '../../components/dialog-kit';
import { MoveCopyDialog } from './dialogs/move-copy-dialog';
import type { DriveView } from './drive-view';

/*
 * Unzip (spec §4 "Unzip dialog"): choose the mode; 0 and 1 start at once (正在解压缩，请稍等片刻...),
 * 2 picks a folder in the move/copy dialog's tree (starting at '/'). The server answers a job;
 * a job still running is followed in a notification with its progress until it ends (解压成功
 * or the server's reason). Jobs live on the server, so after a reload the running ones of the
 * last minutes are picked up again and followed the same way; a job this browser was following
 * that ended while the page was closed is reported once (its id waits in localStorage until its
 * end has been shown), so closing the page does not lose the result.
 */

const u = tUnzip;
const POLL_MS = 1000;
const followed = new Set<string>();
/** Jobs whose result this page has shown: a late list answer naming one as running must not show it again. */
const reported = new Set<string>();
const UNREPORTED_KEY = 'gwy.unzip.unreported';

/** Ids of jobs whose end this browser has not shown yet (a closed page would otherwise lose it). */
function unreported(): Set<string> {
  try {
    const ids: unknown = JSON.parse(localStorage.getItem(UNREPORTED_KEY) ?? '[]');
    return new Set(Array.isArray(ids) ? ids.filter((x): x is string => typeof x === 'string') : []);
  } catch {
    return new Set();
  }
}

function markUnreported(jobId: string, waiting: boolean) {
  const ids = unreported();
  if (waiting) ids.add(jobId);
  else ids.delete(jobId);
  try {
    // The server lists 20 recent jobs; older ids can never be reported and are dropped.
    localStorage.setItem(UNREPORTED_KEY, JSON.stringify([...ids].slice(-UNZIP_RECENT_MAX)));
  } catch {
    // Storage full or blocked: the result is still shown while the page stays open.
  }
}

function archiveBase(item: FileEntry) {
  return item.fileName.replace(/\.tar$/i, '') || item.fileName;
}

/** Follows one job in a notification until it ends, then refreshes the list. */
function follow(job: UnzipJob, onDone: () => void) {
  if (followed.has(job.jobId) || reported.has(job.jobId)) return;
  followed.add(job.jobId);
  if (job.status === 'running') markUnreported(job.jobId, true);
  const id = `unzip-${job.jobId}`;
  const show = (j: UnzipJob) => {
    if (j.status === 'running') {
      notifications.show({
        id,
        loading: true,
        autoClose: false,
        withCloseButton: false,
        title: u.running(j.archiveName),
        message: j.message || u.progress(j.entriesDone, j.entriesTotal),
      });
      return false;
    }
    notifications.hide(id);
    notifications.show({
      color: j.status === 'done' ? 'green' : 'red',
      autoClose: 5000,
      message:
        j.status === 'done' ? u.finished(j.archiveName, j.message) : u.failed(j.archiveName, j.message),
    });
    followed.delete(j.jobId);
    reported.add(j.jobId);
    markUnreported(j.jobId, false);
    onDone();
    return true;
  };
  if (show(job)) return;
  // One poll at a time, and nothing after the end: on a slow network an answer can take longer
  // than POLL_MS, and two answers saying "ended" showed the result twice.
  let asking = false;
  let ended = false;
  const timer = window.setInterval(() => {
    if (asking || ended) return;
    asking = true;
    drive
      .get<UnzipJob>('/file/unzipjob', { query: { jobId: job.jobId }, silent: true })
      .then((j) => {
        if (!ended && show(j)) {
          ended = true;
          window.clearInterval(timer);
        }
      })
      .catch(() => undefined)
      .finally(() => {
        asking = false;
      });
  }, POLL_MS);
}

/** The unzip entry of the drive page: `start(item)` opens the dialog; render `element`. */
export function useUnzip(view: DriveView, refresh: () => void) {
  const [item, setItem] = useState<FileEntry | null>(null);
  const [step, setStep] = useState<'mode' | 'tree'>('mode');
  const [busy, setBusy] = useState(false);

  // The latest refresh, so the pick-up below runs once per page and not at every render (the
  // drive page's refresh changes identity with its query).
  const refreshRef = useRef(refresh);
  useEffect(() => {
    refreshRef.current = refresh;
  }, [refresh]);

  // Jobs still running from before a reload are followed again; those that ended meanwhile
  // (and were being followed here) have their result shown now.
  useEffect(() => {
    const onDone = () => refreshRef.current();
    drive
      .get<{ list: UnzipJob[] }>('/file/unzipjobs', { silent: true })
      .then((r) => {
        const waiting = unreported();
        r.list
          .filter((j) => j.status === 'running' || waiting.has(j.jobId))
          .forEach((j) => follow(j, onDone));
      })
      .catch(() => undefined);
  }, []);

  /**
   * Starts a job. Modes 0 and 1 leave a refusal to the API client's toast; mode 2 (`inDialog`)
   * throws it, so the tree dialog keeps it in place and the person can pick another folder.
   */
  const run = async (unzipMode: 0 | 1 | 2, filePath?: string, inDialog = false) => {
    if (!item) return;
    setBusy(true);
    const waiting = notifications.show({ loading: true, autoClose: false, message: u.waiting });
    try {
      const job = await drive.post<UnzipJob>(
        '/file/unzipfile',
        {
          ...view.areaQuery,
          userFileId: item.userFileId,
          unzipMode,
          ...(unzipMode === 2 ? { filePath: filePath ?? ROOT } : {}),
        },
        { silent: inDialog },
      );
      setItem(null);
      if (job.status === 'done') {
        notifications.show({ color: 'green', message: job.message || u.done });
        refresh();
      } else {
        follow(job, () => refreshRef.current());
      }
    } catch (err) {
      // The API client already showed the server's message, unless the dialog shows it.
      if (inDialog || !(err instanceof ApiError)) throw err;
    } finally {
      notifications.hide(waiting);
      setBusy(false);
    }
  };

  const name = item ? joinName(item.fileName, item.extendName) : '';
  const element = item ? (
    step === 'tree' ? (
      <MoveCopyDialog
        opened
        mode="copy"
        view={view}
        items={[]}
        title={u.treeTitle}
        whatText={u.treeWhat(name)}
        submitLabel={u.confirm}
        initialTarget={ROOT}
        onSubmit={async (target) => {
          await run(2, target, true);
          // Only `queued` is read by the dialog; unzip never goes through the outbox.
          return { queued: false } as unknown as SubmitResult;
        }}
        onClose={() => setItem(null)}
      />
    ) : (
      <Modal opened onClose={() => !busy && setItem(null)} title={u.title} size={DIALOG_WIDTH.standard}>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {u.what(name)}
          </Text>
          <Button variant="light" loading={busy} onClick={() => void run(0)} data-unzip-mode="0">
            {u.mode0}
          </Button>
          <Button variant="light" disabled={busy} onClick={() => void run(1)} data-unzip-mode="1">
            {u.mode1(archiveBase(item))}
          </Button>
          <Button variant="light" disabled={busy} onClick={() => setStep('tree')} data-unzip-mode="2">
            {u.mode2}
          </Button>
        </Stack>
      </Modal>
    )
  ) : null;

  return {
    start: (target: FileEntry) => {
      setStep('mode');
      setItem(target);
    },
    element,
  };
}
