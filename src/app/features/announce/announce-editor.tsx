import {
  Alert,
  Button,
  FileButton,
  Group,
  Modal,
  Progress,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconPaperclip, IconSend } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import {
  ANNOUNCE_STATUS,
  AnnounceCreate,
  TITLE_MAX,
  type AnnounceSaved,
  type AnnounceStatus,
  type AudienceType,
} from '../../../shared/api/announce';
import { ATTACH_HINT_TYPES, type Attachment } from '../../../shared/api/attach';
import { formatSize } from '../../../shared/drive/file-types';
import { DeptPicker } from '../../components/dept-picker';
import { useDialogEscape } from '../../components/dialog-escape';
import { LoadingBlock, notifySuccess } from '../../components/page-states';
import { PeoplePicker, type PickedPerson } from '../../components/people-picker';
import { RichTextEditor } from '../../components/rich-text-editor';
import { deleteAttachment, uploadAttachment } from '../../lib/attach';
import { tCore } from '../../lib/i18n-core';
import { tAnnounce } from '../../lib/i18n/announce';
import { announceCalls, announceKeys } from './announce-data';
import { AttachmentLine, RemoveButton } from './attachment-line';

const E = tAnnounce.form;
const TABLE = 'announcement';

interface Uploading {
  key: string;
  name: string;
  percent: number;
  error: string | null;
}

type Errors = Partial<Record<'title' | 'content' | 'deptIds' | 'userIds' | 'audienceType', string>>;

/**
 * 新建 / 编辑 an announcement (a modal that does not close on outside click): title, rich text,
 * attachments (uploaded at once with progress, bound when saved) and the audience. A new, draft
 * or withdrawn one offers 保存草稿 and 发布 side by side; a published one 保存修改 (it stays
 * published). The toast says which happened: a draft nobody sees yet, or published and to how
 * many people.
 */
export function AnnounceEditor({
  opened,
  id,
  onClose,
}: {
  opened: boolean;
  /** null: a new announcement. */
  id: number | null;
  onClose: () => void;
}) {
  const phone = useMediaQuery('(max-width: 600px)');
  // Escape in the people or department picker closes the picker, not the editor with its text.
  const escape = useDialogEscape(onClose, opened);
  return (
    <Modal
      {...escape}
      opened={opened}
      onClose={onClose}
      title={id ? E.editTitle : E.newTitle}
      size={900}
      fullScreen={phone}
      data-testid="announce-editor"
    >
      {opened && <EditorForm key={id ?? 'new'} id={id} onClose={onClose} />}
    </Modal>
  );
}

interface Initial {
  /** The stored status (ANNOUNCE_STATUS); a new one is a draft. */
  status: AnnounceStatus;
  title: string;
  content: string;
  audienceType: AudienceType;
  deptIds: number[];
  people: PickedPerson[];
  files: Attachment[];
}
const EMPTY: Initial = {
  status: ANNOUNCE_STATUS.draft,
  title: '',
  content: '',
  audienceType: 'all',
  deptIds: [],
  people: [],
  files: [],
};

/** Loads the announcement being edited (administrators get its audience), then shows the form. */
function EditorForm({ id, onClose }: { id: number | null; onClose: () => void }) {
  const existing = useQuery({
    queryKey: announceKeys.edit(id ?? 0),
    queryFn: ({ signal }) => announceCalls.detail(id!, { signal }),
    enabled: id !== null,
    // Always the current version when the dialog opens, and never reloaded under the person's edits.
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  if (id === null) return <Form id={null} initial={EMPTY} onClose={onClose} />;
  if (existing.isError)
    return (
      <Alert color="red" title={tCore.common.loadFailed}>
        {existing.error instanceof Error ? existing.error.message : tCore.common.loadFailedHint}
      </Alert>
    );
  const d = existing.data;
  if (!d) return <LoadingBlock />;
  return (
    <Form
      id={id}
      initial={{
        status: d.status as AnnounceStatus,
        title: d.title,
        content: d.content,
        audienceType: d.audience?.type ?? 'all',
        deptIds: d.audience?.depts.map((x) => x.id) ?? [],
        people: d.audience?.users ?? [],
        files: d.attachments,
      }}
      onClose={onClose}
    />
  );
}

function Form({ id, initial, onClose }: { id: number | null; initial: Initial; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(initial.title);
  const [content, setContent] = useState(initial.content);
  const [audienceType, setAudienceType] = useState<AudienceType>(initial.audienceType);
  const [deptIds, setDeptIds] = useState<number[]>(initial.deptIds);
  const [people, setPeople] = useState<PickedPerson[]>(initial.people);
  const [files, setFiles] = useState<Attachment[]>(initial.files);
  const [uploading, setUploading] = useState<Uploading[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  // Which button runs: 保存草稿 / 保存修改 ('save') or 发布 ('publish').
  const [saving, setSaving] = useState<'save' | 'publish' | null>(null);
  const published = initial.status === ANNOUNCE_STATUS.published;
  // One key per submission attempt: a retried save must not add twice.
  const attemptKey = useRef(crypto.randomUUID());
  // Uploads of this dialog that no saved record holds: removed again when dropped.
  const fresh = useRef(new Set<number>());

  const addFiles = (picked: File[]) => {
    for (const file of picked) {
      const key = crypto.randomUUID();
      setUploading((u) => [...u, { key, name: file.name, percent: 0, error: null }]);
      const patch = (p: Partial<Uploading>) =>
        setUploading((u) => u.map((x) => (x.key === key ? { ...x, ...p } : x)));
      uploadAttachment('file', file, { tableName: TABLE, onProgress: (percent) => patch({ percent }) }).then(
        (att) => {
          fresh.current.add(att.attId);
          setFiles((f) => [...f, att]);
          setUploading((u) => u.filter((x) => x.key !== key));
        },
        (err: unknown) => patch({ error: err instanceof Error ? err.message : tCore.errors.server }),
      );
    }
  };

  const dropFile = (att: Attachment) => {
    setFiles((f) => f.filter((x) => x.attId !== att.attId));
    // A saved record's attachment goes when the record is saved without it; a fresh one now.
    if (fresh.current.delete(att.attId)) void deleteAttachment(att.attId).catch(() => {});
  };

  const save = async (publish: boolean) => {
    const parsed = AnnounceCreate.safeParse({
      title,
      content,
      audienceType,
      deptIds,
      userIds: people.map((p) => p.id),
      attachmentIds: files.map((f) => f.attId),
    });
    const next: Errors = {};
    if (!parsed.success)
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof Errors;
        next[field] ??= issue.message;
      }
    if (!content.trim()) next.content = E.contentRequired;
    setErrors(next);
    if (!parsed.success || Object.keys(next).length > 0) return;
    if (uploading.some((u) => !u.error)) {
      setFailure(E.waitUploads);
      return;
    }
    setSaving(publish ? 'publish' : 'save');
    setFailure(null);
    try {
      const body = { ...parsed.data, publish };
      const r =
        id === null
          ? await announceCalls.add(body, attemptKey.current)
          : await announceCalls.edit({ ...body, id }, attemptKey.current);
      fresh.current.clear();
      await queryClient.invalidateQueries({ queryKey: announceKeys.all });
      tellOutcome(r, published);
      onClose();
    } catch (err) {
      setFailure(err instanceof Error ? err.message : tCore.errors.server);
      attemptKey.current = crypto.randomUUID();
    } finally {
      setSaving(null);
    }
  };

  return (
    <Stack gap="md">
      <TextInput
        label={E.title}
        placeholder={E.titlePlaceholder}
        required
        value={title}
        maxLength={TITLE_MAX}
        onChange={(e) => setTitle(e.currentTarget.value)}
        error={errors.title}
        rightSection={
          <Text size="xs" c="dimmed">
            {title.length}/{TITLE_MAX}
          </Text>
        }
        rightSectionWidth={64}
        data-autofocus
      />
      <RichTextEditor
        label={E.content}
        required
        value={content}
        onChange={setContent}
        tableName={TABLE}
        error={errors.content}
        testId="announce-content"
      />
      <Stack gap={6}>
        <Group gap="sm">
          <Text size="sm" fw={500}>
            {E.attachments}
          </Text>
          <FileButton onChange={addFiles} multiple>
            {(props) => (
              <Button {...props} size="xs" variant="light" leftSection={<IconPaperclip size={14} />}>
                {E.upload}
              </Button>
            )}
          </FileButton>
        </Group>
        <Text size="xs" c="dimmed">
          {E.uploadHint(ATTACH_HINT_TYPES.join('、'))}
        </Text>
        {files.map((f) => (
          <AttachmentLine
            key={f.attId}
            name={f.attName}
            status={formatSize(f.attSize)}
            action={<RemoveButton label={E.removeFile(f.attName)} onClick={() => dropFile(f)} />}
            testId="announce-attachment"
          />
        ))}
        {uploading.map((u) => (
          <Stack key={u.key} gap={2} data-testid="announce-uploading">
            <AttachmentLine
              name={u.name}
              status={u.error ?? `${u.percent}%`}
              statusColor={u.error ? 'red' : 'dimmed'}
              action={
                u.error && (
                  <RemoveButton
                    label={E.removeFile(u.name)}
                    onClick={() => setUploading((list) => list.filter((x) => x.key !== u.key))}
                  />
                )
              }
            />
            {!u.error && <Progress value={u.percent} size="sm" aria-label={E.uploadProgress(u.name)} />}
          </Stack>
        ))}
      </Stack>
      <Stack gap={6}>
        <Text size="sm" fw={500}>
          {E.audience}
        </Text>
        <SegmentedControl
          value={audienceType}
          onChange={(v) => setAudienceType(v as AudienceType)}
          data={[
            { value: 'all', label: tAnnounce.audience.all },
            { value: 'dept', label: tAnnounce.audience.byDept },
            { value: 'user', label: tAnnounce.audience.byPeople },
          ]}
          data-testid="announce-audience"
          style={{ alignSelf: 'flex-start' }}
        />
        {audienceType === 'dept' && (
          <DeptPicker
            value={deptIds}
            onChange={setDeptIds}
            error={errors.deptIds}
            label={E.depts}
            testId="announce-depts"
          />
        )}
        {audienceType === 'user' && (
          <PeoplePicker
            value={people}
            onChange={setPeople}
            error={errors.userIds}
            label={E.people}
            testId="announce-people"
          />
        )}
      </Stack>
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
      {published && (
        <Text size="sm" c="dimmed" data-testid="announce-published-note">
          {E.publishedNote}
        </Text>
      )}
      <Group justify="flex-end" gap="sm" data-testid="announce-actions">
        <Button variant="default" onClick={onClose} disabled={saving !== null}>
          {tCore.common.cancel}
        </Button>
        {published ? (
          <Button onClick={() => void save(false)} loading={saving === 'save'}>
            {E.saveChanges}
          </Button>
        ) : (
          <>
            <Button
              variant="light"
              onClick={() => void save(false)}
              loading={saving === 'save'}
              disabled={saving === 'publish'}
            >
              {E.saveDraft}
            </Button>
            <Button
              leftSection={<IconSend size={16} aria-hidden />}
              onClick={() => void save(true)}
              loading={saving === 'publish'}
              disabled={saving === 'save'}
            >
              {E.publish}
            </Button>
          </>
        )}
      </Group>
    </Stack>
  );
}

/** Says what the save did: a draft nobody sees yet, published to n people, or saved but not published. */
function tellOutcome(r: AnnounceSaved, wasPublished: boolean) {
  if (r.publishError) {
    notifications.show({ color: 'yellow', message: E.publishFailed(r.publishError), autoClose: 8000 });
    return;
  }
  if (wasPublished) notifySuccess(E.savedPublished(r.notified));
  else if (r.status === ANNOUNCE_STATUS.published) notifySuccess(E.publishedTo(r.notified));
  else if (r.status === ANNOUNCE_STATUS.cancelled) notifySuccess(E.savedCancelled);
  else notifySuccess(E.savedDraft);
}
