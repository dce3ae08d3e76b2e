import { useQueryClient } from '@tanstack/react-query';
import type { PickerItem } from '../../../shared/api/project';
import { confirmAction, notifySuccess } from '../../components/page-states';
import { ProjectFilePicker } from '../../components/project-file-picker';
import { tDrive } from '../../lib/i18n/drive';
import { useOnline } from '../../lib/online';
import { docCalls, targetOf } from '../../lib/project-docs';
import type { DriveItem } from './overlay';

const T = tDrive.toProject;
const nameOf = (i: DriveItem) => (i.isDir || !i.extendName ? i.fileName : `${i.fileName}.${i.extendName}`);

/**
 * 移动到项目: the move/associate picker in move mode (a project or one of its document
 * folders), then checkFileInProject for each item; a name already there is told before the
 * move, which then takes a free name (the server's rule). The move itself is one server call,
 * all or nothing, and needs the network (my quota is freed at once, so it is not queued).
 */
export function ToProjectDialog(props: {
  items: DriveItem[];
  opened: boolean;
  onClose: (moved: boolean) => void;
}) {
  const qc = useQueryClient();
  const online = useOnline();
  const move = async (item: PickerItem) => {
    const to = targetOf(item)!;
    const ids = props.items.map((i) => i.userFileId);
    const moved = await docCalls.moveFromDrive(to, ids);
    notifySuccess(T.moved(moved.names.length));
    await qc.invalidateQueries({ queryKey: ['drive'] });
    props.onClose(true);
  };
  return (
    <ProjectFilePicker
      mode="move"
      opened={props.opened}
      onClose={() => props.onClose(false)}
      onPick={async (item) => {
        if (!online) throw new Error(T.offline);
        const to = targetOf(item)!;
        const checks = await Promise.all(props.items.map((i) => docCalls.clash(to, i.userFileId)));
        const clashes = props.items.filter((_, n) => checks[n]!.exists).map(nameOf);
        if (!clashes.length) return move(item);
        // The picker closes; the question stays until answered (and shows a refusal in place).
        confirmAction({
          title: T.clashTitle,
          message: T.clash(clashes.join('」「')),
          confirmLabel: T.go,
          run: () => move(item),
        });
      }}
    />
  );
}
