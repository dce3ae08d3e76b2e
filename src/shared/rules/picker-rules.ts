import type { PickerItem } from '../api/project';

export type PickerMode = 'move' | 'associate';

/**
 * Spec §5: move mode needs a folder or a project (type 1 or 2), associate mode an attachment
 * (type 0). Answers the rule's words when the choice does not fit, null when it does.
 */
export function pickerError(
  mode: PickerMode,
  chosen: Pick<PickerItem, 'type'> | null,
  words: { needFolder: string; needFile: string },
): string | null {
  if (mode === 'move') return chosen && chosen.type !== 0 ? null : words.needFolder;
  return chosen && chosen.type === 0 ? null : words.needFile;
}

/**
 * The columns shown for a path of chosen items: the top level, then the children of each
 * chosen item that has any (column-style browsing, like a Finder).
 */
export function pickerColumns(top: PickerItem[], path: PickerItem[]): PickerItem[][] {
  const columns = [top];
  for (const item of path) {
    if (item.type === 0) break;
    columns.push(item.list);
  }
  return columns;
}
