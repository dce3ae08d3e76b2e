import '@mantine/tiptap/styles.css';
import { Input } from '@mantine/core';
import { Link, RichTextEditor as Editor, getUploadImageExtension } from '@mantine/tiptap';
import Image from '@tiptap/extension-image';
import { Placeholder } from '@tiptap/extensions';
import { IconCloud } from '@tabler/icons-react';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useRef, useState, type CSSProperties } from 'react';
import type { Attachment } from '../../shared/api/attach';
import { attachFromDrive, uploadAttachment } from '../lib/attach';
import { errorToast } from '../lib/api';
import { tAnnounce } from '../lib/i18n/announce';
import { useOnline } from '../lib/online';
import { DriveFilePicker } from './drive-file-picker';
import classes from './rich-text-editor.module.css';

const L = tAnnounce.editor;

/** The toolbar's labels in Chinese (the controls' aria-labels and tooltips). */
const LABELS = {
  boldControlLabel: L.bold,
  italicControlLabel: L.italic,
  underlineControlLabel: L.underline,
  strikeControlLabel: L.strike,
  h1ControlLabel: L.h1,
  h2ControlLabel: L.h2,
  h3ControlLabel: L.h3,
  codeBlockControlLabel: L.codeBlock,
  blockquoteControlLabel: L.blockquote,
  bulletListControlLabel: L.bulletList,
  orderedListControlLabel: L.orderedList,
  hrControlLabel: L.hr,
  linkControlLabel: L.link,
  unlinkControlLabel: L.unlink,
  linkEditorInputLabel: L.linkInput,
  linkEditorInputPlaceholder: L.linkPlaceholder,
  linkEditorExternalLink: L.linkExternal,
  linkEditorInternalLink: L.linkInternal,
  linkEditorSave: L.linkSave,
  imageUploadControlLabel: L.image,
  undoControlLabel: L.undo,
  redoControlLabel: L.redo,
  clearFormattingControlLabel: L.clear,
};

/**
 * The rich text editor of the content pages (spec office.md §2 "Rich-text editor"): paragraphs,
 * headings h1–h3 and pre (code blocks), bold, italic, underline, strike, quotes, lists, links
 * and images. Images (picked, pasted or dropped) upload through attach/uploadimage for
 * `tableName` and are inserted by their URL on our server; the server's sanitizer keeps no
 * other image source. 从网盘选择图片 (online only: the drive is not kept offline) makes the same
 * kind of image of a file of the person's own drive (attach/fromDrive, image) and inserts it the
 * same way, so it is bound to the record on save like an upload. Without `tableName` there is
 * nowhere to upload to: images already in the text show, none can be added. Default height 200
 * (spec §9). The value is HTML; the server sanitizes it, the editor is only a convenience.
 */
export function RichTextEditor({
  value,
  onChange,
  tableName,
  minHeight = 200,
  label,
  error,
  required,
  testId,
  placeholder,
  ariaLabel,
}: {
  value: string;
  onChange: (html: string) => void;
  /** The attachment table images are uploaded for; without it the editor adds no images. */
  tableName?: string;
  minHeight?: number;
  label?: string;
  error?: string | null;
  required?: boolean;
  testId?: string;
  /** Shown in the empty editor (Mantine's styles draw it from data-placeholder). */
  placeholder?: string;
  /** The editable area's accessible name (a box without a visible label, like the comment box). */
  ariaLabel?: string;
}) {
  const changeRef = useRef(onChange);
  useEffect(() => {
    changeRef.current = onChange;
  });
  const online = useOnline();
  const [picker, setPicker] = useState(false);
  const editor = useEditor({
    extensions: [
      // The starter kit's own link is replaced by Mantine's, which the link control needs.
      StarterKit.configure({ heading: { levels: [1, 2, 3] }, link: false }),
      Link.configure({ openOnClick: false, protocols: ['mailto'] }),
      ...(placeholder ? [Placeholder.configure({ placeholder })] : []),
      tableName
        ? getUploadImageExtension(Image, {
            onImageUpload: async (file: File) =>
              imageOf(await uploadAttachment('image', file, { tableName })),
            onImageUploadError: (_file: File, err: unknown) =>
              errorToast(err instanceof Error ? err.message : L.imageFailed),
          })
        : Image,
    ],
    content: value,
    // The editable area is named by its visible label when it has one (axe: aria-input-field-name).
    // Left out when unnamed: tiptap reads editorProps, so an undefined one would replace its default.
    ...((ariaLabel ?? label) && {
      editorProps: {
        attributes: { role: 'textbox', 'aria-multiline': 'true', 'aria-label': (ariaLabel ?? label)! },
      },
    }),
    onUpdate: ({ editor: e }) => changeRef.current(e.isEmpty ? '' : e.getHTML()),
  });

  // A value set from outside (the form reset to another record) replaces the document.
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    const current = editor.isEmpty ? '' : editor.getHTML();
    if (value !== current) editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  return (
    <Input.Wrapper label={label} error={error} required={required}>
      <Editor editor={editor} labels={LABELS} data-testid={testId} mt={label ? 4 : 0}>
        <Editor.Toolbar sticky stickyOffset={0}>
          <Editor.ControlsGroup>
            <Editor.H1 />
            <Editor.H2 />
            <Editor.H3 />
            <Editor.CodeBlock />
          </Editor.ControlsGroup>
          <Editor.ControlsGroup>
            <Editor.Bold />
            <Editor.Italic />
            <Editor.Underline />
            <Editor.Strikethrough />
            <Editor.ClearFormatting />
          </Editor.ControlsGroup>
          <Editor.ControlsGroup>
            <Editor.Blockquote />
            <Editor.BulletList />
            <Editor.OrderedList />
            <Editor.Hr />
          </Editor.ControlsGroup>
          <Editor.ControlsGroup>
            <Editor.Link />
            <Editor.Unlink />
            {tableName && <Editor.ImageUpload accept="image/png,image/jpeg,image/gif,image/webp" />}
            {tableName && online && (
              <Editor.Control
                onClick={() => setPicker(true)}
                aria-label={L.imageFromDrive}
                title={L.imageFromDrive}
              >
                <IconCloud size={16} stroke={1.5} />
              </Editor.Control>
            )}
          </Editor.ControlsGroup>
          <Editor.ControlsGroup>
            <Editor.Undo />
            <Editor.Redo />
          </Editor.ControlsGroup>
        </Editor.Toolbar>
        <Editor.Content
          className={classes.content}
          style={{ '--rte-min-height': `${minHeight}px` } as CSSProperties}
        />
      </Editor>
      {tableName && (
        <DriveFilePicker
          images
          opened={picker}
          onClose={() => setPicker(false)}
          onPick={async (f) => {
            try {
              const att = await attachFromDrive(tableName, f.userFileId, true);
              // Where the cursor was when the picker opened, as an uploaded image goes.
              editor?.chain().focus().setImage(imageOf(att)).run();
            } catch (err) {
              // The server's words (not an image, too large, gone); the picker stays open to pick again.
              errorToast(err instanceof Error ? err.message : L.imageFailed);
              throw err;
            }
          }}
        />
      )}
    </Input.Wrapper>
  );
}

/** How an image on our server goes into the text, uploaded or picked from the drive. */
const imageOf = (att: Attachment) => ({ src: att.attPath, alt: att.attName });
