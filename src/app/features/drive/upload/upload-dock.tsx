import { notifications } from '@mantine/notifications';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { ROOT } from '../../../../shared/drive/names';
import { tDrive } from '../../../lib/i18n/drive';
import { tUpload } from '../../../lib/i18n/upload';
import { readyEngine, useUploads } from '../../../lib/upload';
import type { NewUpload } from '../../../lib/upload/engine';
import { useStorage } from '../drive-data';
import type { DriveView } from '../drive-view';
import { PasteDialog } from './paste-dialog';
import { UploadPanel } from './upload-panel';

/**
 * Whether the upload panel is shown: opened by 上传文件 (toolbar or blank-space menu) and by a
 * drop on the list; shown by itself while uploads are unfinished (after a reload the person
 * sees them resume) until closed.
 */
const panel = {
  open: false,
  dismissed: false,
  listeners: new Set<() => void>(),
  set(open: boolean) {
    panel.open = open;
    if (!open) panel.dismissed = true;
    panel.listeners.forEach((l) => l());
  },
};
const subscribe = (l: () => void) => {
  panel.listeners.add(l);
  return () => panel.listeners.delete(l);
};

export function openUploadPanel() {
  panel.set(true);
}

/** The warnings of spec §5 for what was left out of a batch. */
function report(rejected: { name: string; reason: string }[], batchRefused?: string) {
  if (batchRefused) notifications.show({ color: 'yellow', message: batchRefused });
  for (const r of rejected.slice(0, 5)) {
    notifications.show({ color: 'yellow', message: tUpload.rejected(r.name, r.reason) });
  }
  if (rejected.length > 5) {
    notifications.show({ color: 'yellow', message: `另有 ${rejected.length - 5} 个文件未添加` });
  }
}

/** Adds files to the queue for the view's folder, with the spec's checks and messages. */
export function useAddUploads(view: DriveView, storage: ReturnType<typeof useStorage>) {
  return async (files: NewUpload[], way: 1 | 2 | 3 | 4) => {
    if (files.length === 0) return;
    const engine = await readyEngine();
    if (!engine) return;
    const s = storage.data;
    // The personal drive has a quota; the shared library's room is the server's to judge.
    const remaining = view.area === 'own' && s ? Math.max(0, s.totalStorageSize - s.storageSize) : null;
    const r = await engine.add(
      files,
      { filePath: view.filePath, area: { ...view.areaQuery } },
      way,
      remaining,
    );
    report(r.rejected, r.batchRefused);
    if (r.added) panel.set(true);
  };
}

/** The drive page's upload panel and paste dialog, for the open folder (or list only). */
export function UploadDock({ view, canUpload }: { view: DriveView; canUpload: boolean }) {
  const open = useSyncExternalStore(subscribe, () => panel.open);
  const uploads = useUploads();
  const storage = useStorage();
  const add = useAddUploads(view, storage);
  const [pasting, setPasting] = useState(false);
  const unfinished = uploads.some((v) => v.state !== 'success');
  // Unfinished uploads found at start open the panel, and it stays open when they finish.
  useEffect(() => {
    if (unfinished && !panel.open && !panel.dismissed) panel.set(true);
  }, [unfinished]);

  const label = `${tDrive.root}${view.filePath === ROOT ? '' : view.filePath.replace(/\/$/, '')}`;
  return (
    <>
      {open && (
        <UploadPanel
          target={canUpload ? { filePath: view.filePath, area: { ...view.areaQuery }, label } : null}
          onAdd={(files, way) => void add(files, way)}
          onPaste={() => setPasting(true)}
          onClose={() => panel.set(false)}
        />
      )}
      <PasteDialog
        opened={pasting}
        onClose={() => setPasting(false)}
        onUpload={(file, name) => void add([{ file, name }], 4)}
      />
    </>
  );
}
