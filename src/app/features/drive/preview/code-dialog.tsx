import { ActionIcon, Select, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconMinus, IconPlus } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import { joinName } from '../../../../shared/drive/names';
import { tPreview } from '../../../lib/i18n/preview';
import { CodeEditor, FONT_DEFAULT, FONT_MAX, FONT_MIN, FONT_STEP, languageByName } from './code-editor';
import { THEME_OPTIONS, useCodeTheme } from './code-themes';
import classes from './editors.module.css';
import { EditorShell } from './editor-shell';
import { EditingNotes, LoadingOrError, useTextEditing } from './text-editing';
import type { PreviewProps } from './types';

const T = tPreview.editors;
/** spec §9: the wide dialogs are 900 px; phones (768 px and narrower) get the whole screen. */
const WIDTH = 900;
const PHONE_QUERY = '(max-width: 768px)';

/**
 * The code and text dialog (spec/drive.md §2 dialog 4, §4 "Code dialog"): CodeMirror with the
 * language of the file's extension, a colour theme remembered on the device, font size 12–30,
 * read-only unless editing is allowed, 未保存 while the text differs from the file, Ctrl+S /
 * 保存 saves and reloads, Escape closes (asking first about unsaved changes).
 */
export default function CodeDialog(props: PreviewProps) {
  const file = props.files[props.index] ?? props.files[0]!;
  const name = joinName(file.fileName, file.extendName);
  const editing = useTextEditing({
    file,
    area: props.area,
    editable: props.editable,
    onClose: props.onClose,
  });
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const [fontSize, setFontSize] = useState(FONT_DEFAULT);
  const theme = useCodeTheme();
  // Language by extension, case-insensitive (INDEX.JS is JavaScript too).
  const language = useCallback(
    () => languageByName(joinName(file.fileName, file.extendName.toLowerCase())),
    [file.fileName, file.extendName],
  );
  const font = (step: number) =>
    setFontSize((n) => Math.min(FONT_MAX, Math.max(FONT_MIN, n + step * FONT_STEP)));

  return (
    <EditorShell
      editing={editing}
      name={name}
      testId="code-dialog"
      size={WIDTH}
      fullScreen={phone}
      tools={
        <>
          <ActionIcon
            variant="default"
            aria-label={T.fontSmaller}
            title={T.fontSmaller}
            disabled={fontSize <= FONT_MIN}
            onClick={() => font(-1)}
          >
            <IconMinus size={14} />
          </ActionIcon>
          <Text size="sm" w={40} ta="center" aria-label={T.fontSize} data-testid="editor-font-size">
            {fontSize}px
          </Text>
          <ActionIcon
            variant="default"
            aria-label={T.fontLarger}
            title={T.fontLarger}
            disabled={fontSize >= FONT_MAX}
            onClick={() => font(1)}
          >
            <IconPlus size={14} />
          </ActionIcon>
          <Select
            aria-label={T.theme}
            data={THEME_OPTIONS}
            value={theme.choice}
            onChange={theme.setChoice}
            allowDeselect={false}
            searchable
            size="xs"
            w={150}
            data-testid="editor-theme"
            comboboxProps={{ zIndex: 1000 }}
          />
        </>
      }
    >
      {theme.failed && (
        <Text size="xs" c="dimmed">
          {T.themeFailed}
        </Text>
      )}
      <EditingNotes editing={editing} />
      <LoadingOrError editing={editing} />
      {editing.status === 'ready' && (
        <CodeEditor
          className={phone ? `${classes.codeBox} ${classes.fill}` : classes.codeBox}
          text={editing.doc.text}
          version={editing.doc.version}
          language={language}
          readOnly={editing.readOnly}
          fontSize={fontSize}
          theme={theme.extension}
          onChange={editing.setText}
          label={name}
        />
      )}
    </EditorShell>
  );
}
