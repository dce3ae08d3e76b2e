import { Alert, Badge, Button, Center, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import dayjs from 'dayjs';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { UpdateBody, type FileEntry } from '../../../../shared/api/drive';
import { SESSION_EXPIRED_STATUS } from '../../../../shared/api/codes';
import { ApiError, OfflineError, drive, errorToast } from '../../../lib/api';
import { tCore } from '../../../lib/i18n-core';
import { tPreview } from '../../../lib/i18n/preview';
import { drafts, type Draft } from './drafts';
import type { ReadArea } from '../drive-data';
import { loadText } from './source';

/**
 * What the code dialog and the markdown overlay share (spec/drive.md §4 "Code dialog": load
 * text -> edit -> save -> reload): loading through loadText, the unsaved state (the original
 * differs from the current text), saving with file/update, Ctrl+S and Escape, the question
 * before closing with unsaved changes, and the offline draft.
 *
 * Line endings: CodeMirror holds lines joined with \n, so the original is compared in that
 * form, and a file written with \r\n (Windows Notepad) is saved with \r\n again. Text that was
 * GBK is saved as UTF-8 (the server decodes GBK for the editor; file/update stores UTF-8).
 */

type Eol = '\n' | '\r\n';
const T = tPreview.editors;

interface State {
  status: 'loading' | 'ready' | 'error';
  error: string | null;
  /** The file's text as last loaded or saved (lines joined with \n). */
  original: string;
  eol: Eol;
  /** The editor's text now. */
  current: string;
  /** What the editor is told to show; a new version replaces its text. */
  doc: { text: string; version: number };
  /** A draft kept on the device, offered until restored or dropped. */
  offer: Draft | null;
  /** Why the text shown is not the server's (the draft opened because loading failed). */
  notice: string | null;
  saving: boolean;
  /** Some save succeeded: closing reports 'confirm' so the list refreshes (sizes changed). */
  saved: boolean;
  /** The 放弃修改 / 继续编辑 question is open. */
  asking: boolean;
}

const initial: State = {
  status: 'loading',
  error: null,
  original: '',
  eol: '\n',
  current: '',
  doc: { text: '', version: 0 },
  offer: null,
  notice: null,
  saving: false,
  saved: false,
  asking: false,
};

const normalise = (text: string) => text.replace(/\r\n?/g, '\n');
const when = (at: number) => dayjs(at).format('YYYY-MM-DD HH:mm');
const hint = (message: string) => notifications.show({ color: 'yellow', message, autoClose: 2000 });

export interface TextEditingOptions {
  file: FileEntry;
  area: ReadArea;
  editable: boolean;
  onClose: (result: 'confirm' | 'cancel') => void;
}

export function useTextEditing({ file, area, editable, onClose }: TextEditingOptions) {
  const id = file.userFileId;
  const [s, setS] = useState<State>(initial);
  const [attempt, setAttempt] = useState(0);
  /** One idempotency key per text sent: a retry of the same text after a lost answer reuses it. */
  const sent = useRef<{ text: string; key: string } | null>(null);

  useEffect(() => {
    let live = true;
    loadText(area, file).then(
      (raw) => {
        if (!live) return;
        const text = normalise(raw);
        let offer = editable ? drafts.read(id) : null;
        if (offer && offer.text === text) {
          drafts.drop(id);
          offer = null;
        }
        setS((p) => ({
          ...p,
          status: 'ready',
          error: null,
          original: text,
          eol: /\r\n/.test(raw) ? '\r\n' : '\n',
          current: text,
          doc: { text, version: p.doc.version + 1 },
          offer,
        }));
      },
      (err: unknown) => {
        if (!live) return;
        const draft = editable ? drafts.read(id) : null;
        if (draft) {
          // Offline with unsaved edits of this file: reopen them rather than show nothing.
          setS((p) => ({
            ...p,
            status: 'ready',
            error: null,
            original: draft.base,
            eol: draft.eol,
            current: draft.text,
            doc: { text: draft.text, version: p.doc.version + 1 },
            notice: T.draftOpened(when(draft.at)),
          }));
          return;
        }
        setS((p) => ({ ...p, status: 'error', error: err instanceof Error ? err.message : T.loadFailed }));
      },
    );
    return () => {
      live = false;
    };
  }, [area, file, id, editable, attempt]);

  const dirty = editable && s.status === 'ready' && s.current !== s.original;

  const keepDraft = (text: string) => drafts.keep(id, { text, base: s.original, eol: s.eol, at: Date.now() });

  async function save() {
    if (s.saving || s.status !== 'ready') return;
    // spec §5: saving is blocked in read-only mode and when nothing changed; nothing is sent.
    if (!editable) {
      hint(T.readOnlyHint);
      return;
    }
    if (!dirty) {
      hint(T.unchangedHint);
      return;
    }
    const text = s.current;
    const fileContent = s.eol === '\r\n' ? text.replace(/\n/g, '\r\n') : text;
    // The contract's own limit and words (文件内容过大…), before sending megabytes for nothing.
    const tooBig = UpdateBody.shape.fileContent.safeParse(fileContent);
    if (!tooBig.success) {
      errorToast(tooBig.error.issues[0]?.message ?? tCore.errors.server);
      return;
    }
    if (!navigator.onLine) {
      keepDraft(text);
      offline();
      return;
    }
    // The same text sent again after an answer that never came reuses its key, so a save the
    // server did apply is not applied twice. Refusals are remembered by the server under their
    // key, so after one the next try gets a fresh key.
    const key = sent.current?.text === fileContent ? sent.current.key : crypto.randomUUID();
    sent.current = { text: fileContent, key };
    setS((p) => ({ ...p, saving: true }));
    try {
      await drive.post(
        '/file/update',
        { ...area, userFileId: id, fileContent },
        { idempotencyKey: key, silent: true },
      );
    } catch (err) {
      setS((p) => ({ ...p, saving: false }));
      const unanswered = err instanceof ApiError && err.status === 0; // offline or timed out
      if (!unanswered) sent.current = null;
      if (err instanceof OfflineError) {
        keepDraft(text);
        offline();
      } else if (!(err instanceof ApiError && err.status === SESSION_EXPIRED_STATUS)) {
        // 999 already opened the 登录超时 dialog; anything else: the server's reason, text kept.
        errorToast(err instanceof Error ? err.message : tCore.errors.server);
      }
      return;
    }
    sent.current = null;
    drafts.drop(id);
    notifications.show({ color: 'green', message: T.saved });
    // Reload: the editor shows what the server now holds. If that read fails, what was sent is
    // what the server holds.
    let fresh = text;
    try {
      fresh = normalise(await loadText(area, file));
    } catch {
      /* keep the text that was saved */
    }
    setS((p) => ({
      ...p,
      saving: false,
      saved: true,
      notice: null,
      original: fresh,
      current: fresh,
      doc: { text: fresh, version: p.doc.version + 1 },
    }));
  }

  function offline() {
    notifications.show({ color: 'yellow', title: T.offline, message: T.offlineKept, autoClose: 5000 });
  }

  const close = () => onClose(s.saved ? 'confirm' : 'cancel');

  function requestClose() {
    if (s.saving) return;
    if (dirty) setS((p) => ({ ...p, asking: true }));
    else close();
  }

  const discard = () => {
    drafts.drop(id);
    close();
  };
  const keepEditing = () => setS((p) => ({ ...p, asking: false }));

  // Keys of the whole dialog (spec §4: Esc closes, Ctrl+S saves). Escape is left alone when a
  // Mantine dropdown (the theme picker) or CodeMirror (its search panel) used it first: the
  // first is only visible in the capture phase, the second only after it, in the bubble phase.
  const escapeTaken = useRef(new WeakSet<Event>());
  useWindowEvent(
    'keydown',
    (e) => {
      if (e.key !== 'Escape') return;
      const target = e.target instanceof Element ? e.target : null;
      if (target?.closest('[data-mantine-stop-propagation="true"]')) escapeTaken.current.add(e);
    },
    { capture: true },
  );
  // The listener stays bound once and calls this render's handler, set when the render commits.
  // A listener bound anew by each render (an effect, after paint) would, in the moment between,
  // still see the last render's state: an Escape just as a save ended saw 保存中 and was dropped.
  const onKey = useRef<(e: KeyboardEvent) => void>(() => undefined);
  useLayoutEffect(() => {
    onKey.current = (e) => {
      // Keys typed into an input method (Chinese, Japanese) belong to it.
      if (e.isComposing || e.keyCode === 229) return;
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 's') {
        e.preventDefault(); // never the browser's 保存网页
        void save();
        return;
      }
      if (e.key !== 'Escape' || e.defaultPrevented || escapeTaken.current.has(e)) return;
      e.preventDefault();
      if (s.asking) keepEditing();
      else requestClose();
    };
  });
  const keydown = useCallback((e: KeyboardEvent) => onKey.current(e), []);
  useWindowEvent('keydown', keydown);

  return {
    ...s,
    editable,
    dirty,
    /** The editor refuses typing while a save and its reload run, so no keystroke is lost. */
    readOnly: !editable || s.saving,
    canSave: editable && dirty && !s.saving,
    setText: (text: string) => setS((p) => (p.current === text ? p : { ...p, current: text })),
    save: () => void save(),
    requestClose,
    retry: () => {
      setS((p) => ({ ...p, status: 'loading', error: null }));
      setAttempt((n) => n + 1);
    },
    restoreDraft: () =>
      setS((p) =>
        p.offer
          ? {
              ...p,
              offer: null,
              current: p.offer.text,
              doc: { text: p.offer.text, version: p.doc.version + 1 },
            }
          : p,
      ),
    dropDraft: () => {
      drafts.drop(id);
      setS((p) => ({ ...p, offer: null }));
    },
    discard,
    keepEditing,
  };
}

export type TextEditing = ReturnType<typeof useTextEditing>;

/** 未保存 (unsaved changes) or 只读 beside the file name. */
export function EditStateBadge({ editing }: { editing: TextEditing }) {
  if (!editing.editable)
    return (
      <Badge variant="light" color="gray" data-testid="editor-readonly">
        {T.readOnly}
      </Badge>
    );
  if (!editing.dirty) return null;
  return (
    <Badge variant="light" color="orange" data-testid="editor-unsaved">
      {T.unsaved}
    </Badge>
  );
}

/** Loading, a load failure with 重试, the draft offer and notices: what sits above the editor. */
export function EditingNotes({ editing }: { editing: TextEditing }) {
  return (
    <>
      {editing.notice && (
        <Alert color="yellow" variant="light" py={6}>
          {editing.notice}
        </Alert>
      )}
      {editing.offer && (
        <Alert color="blue" variant="light" py={6} data-testid="editor-draft">
          <Group justify="space-between" gap="xs">
            <Text size="sm">{T.draftFound(when(editing.offer.at))}</Text>
            <Group gap="xs">
              <Button size="compact-sm" onClick={editing.restoreDraft}>
                {T.restoreDraft}
              </Button>
              <Button size="compact-sm" variant="default" onClick={editing.dropDraft}>
                {T.dropDraft}
              </Button>
            </Group>
          </Group>
        </Alert>
      )}
    </>
  );
}

export function LoadingOrError({ editing }: { editing: TextEditing }) {
  if (editing.status === 'loading')
    return (
      <Center h={200} role="status">
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm" c="dimmed">
            {T.loading}
          </Text>
        </Group>
      </Center>
    );
  if (editing.status === 'error')
    return (
      <Stack align="center" py="xl" gap="sm">
        <Alert color="red" variant="light" title={T.loadFailed} role="alert" w="100%">
          {editing.error}
        </Alert>
        <Button variant="default" onClick={editing.retry}>
          {T.retry}
        </Button>
      </Stack>
    );
  return null;
}

/** The question before closing with unsaved changes (Escape or the close button). */
export function LeaveConfirm({ editing }: { editing: TextEditing }) {
  return (
    <Modal
      opened={editing.asking}
      onClose={editing.keepEditing}
      title={T.leaveTitle}
      size="sm"
      zIndex={400}
      // Escape is handled by useTextEditing (here: 继续编辑), so one key press is one answer.
      closeOnEscape={false}
    >
      <Text size="sm">{T.leaveMessage}</Text>
      <Group justify="flex-end" gap="sm" mt="md">
        <Button variant="default" onClick={editing.keepEditing} data-autofocus>
          {T.keepEditing}
        </Button>
        <Button color="red" onClick={editing.discard}>
          {T.discard}
        </Button>
      </Group>
    </Modal>
  );
}
