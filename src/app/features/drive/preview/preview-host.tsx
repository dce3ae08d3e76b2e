import { notifications } from '@mantine/notifications';
import { useNavigate } from '@tanstack/react-router';
import { Suspense, lazy, useState, type ComponentType } from 'react';
import type { FileEntry } from '../../../../shared/api/drive';
import { openWith, type OpenWith } from '../../../../shared/drive/file-types';
import { fileMenuItems } from '../../../../shared/drive/menu-rules';
import { tDrive } from '../../../lib/i18n/drive';
import type { ReadArea } from '../drive-data';
import type { DriveView } from '../drive-view';
import type { PreviewProps } from './types';

/**
 * Opens files the way spec/drive.md §5 says: images, audio, video, code and markdown in their
 * previewers, office files on the /onlyoffice route, pdf with the download warning. Each
 * previewer is its own lazily loaded chunk, so CodeMirror and the office viewers cost nothing
 * until someone opens such a file. One previewer at a time: opening another replaces it.
 */
const PREVIEWERS: Partial<Record<OpenWith, ComponentType<PreviewProps>>> = {
  image: lazy(() => import('./image-viewer')),
  audio: lazy(() => import('./audio-player')),
  video: lazy(() => import('./video-preview')),
  code: lazy(() => import('./code-dialog')),
  markdown: lazy(() => import('./markdown-overlay')),
};
/** Previewers that page through the folder's files of the same kind. */
const PAGED: ReadonlySet<OpenWith> = new Set(['image', 'audio', 'video']);

interface Open {
  kind: OpenWith;
  props: Omit<PreviewProps, 'onClose'>;
  nonce: number;
}

/** Where the files are: a drive view, or the share page (its link as the area, the share menu). */
export type PreviewPlace = Pick<DriveView, 'menu'> & { areaQuery: ReadArea };

export function usePreviewHost(view: PreviewPlace, onChanged: () => void) {
  const navigate = useNavigate();
  const [current, setCurrent] = useState<Open | null>(null);

  /** Opens `item`; answers false when the file has no previewer and should download. */
  const open = (item: FileEntry, siblings: readonly FileEntry[]): boolean => {
    const kind = openWith(item.extendName);
    if (kind === 'download') return false;
    if (kind === 'pdf') {
      notifications.show({ color: 'yellow', message: tDrive.open.downloadToView });
      return true;
    }
    const editable = fileMenuItems(view.menu, item).includes('rename');
    // The office page reads the caller's own areas; through a share an office file downloads.
    if (kind === 'office' && view.areaQuery.shareBatchNum !== undefined) return false;
    if (kind === 'office') {
      void navigate({
        to: '/onlyoffice',
        search: {
          ...view.areaQuery,
          userFileId: item.userFileId,
          fileName: item.fileName,
          extendName: item.extendName,
          filePath: item.filePath,
          ot: editable ? 'edit' : 'detail',
        },
      });
      return true;
    }
    const files = PAGED.has(kind)
      ? siblings.filter((f) => f.isDir === 0 && f.userFileId > 0 && openWith(f.extendName) === kind)
      : [item];
    const index = Math.max(
      0,
      files.findIndex((f) => f.userFileId === item.userFileId),
    );
    setCurrent((c) => ({
      kind,
      props: { files: files.length ? files : [item], index, area: view.areaQuery, editable },
      nonce: (c?.nonce ?? 0) + 1,
    }));
    return true;
  };

  const Previewer = current ? PREVIEWERS[current.kind] : undefined;
  const host =
    current && Previewer ? (
      <Suspense fallback={null}>
        <Previewer
          key={current.nonce}
          {...current.props}
          onClose={(result) => {
            setCurrent(null);
            if (result === 'confirm') onChanged();
          }}
        />
      </Suspense>
    ) : null;

  return { open, host };
}
