import { Button, Divider, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { TaskDetail } from '../../../shared/api/project';
import { RichHtml } from '../../components/rich-html';
import { RichTextEditor } from '../../components/rich-text-editor';
import { tCore } from '../../lib/i18n-core';
import { tProject } from '../../lib/i18n/project';

const F = tProject.files;

/**
 * The task's description (spec §2 rich-text editor: default height 200, p, h1–h3 and pre, images
 * uploaded with business type 'project'). Read as sanitized HTML; 编辑 opens the editor and
 * 保存描述 sends one updateProjectTask with ext1 'description' (a draft is never sent per key,
 * so the history has one line per save). A refusal keeps the draft open for another try.
 */
export function TaskDescription(props: { detail: TaskDetail; onSave: (html: string) => Promise<unknown> }) {
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    if (draft === null) return;
    setSaving(true);
    try {
      await props.onSave(draft);
      setDraft(null);
    } catch {
      // The refusal was toasted; the draft stays.
    } finally {
      setSaving(false);
    }
  };
  return (
    <Stack gap={6} data-testid="task-description">
      <Divider label={F.description} labelPosition="left" />
      {draft === null ? (
        <>
          {props.detail.description ? (
            <RichHtml html={props.detail.description} />
          ) : (
            <Text size="sm" c="dimmed">
              {F.descriptionEmpty}
            </Text>
          )}
          <Group justify="flex-end">
            <Button size="compact-sm" variant="subtle" onClick={() => setDraft(props.detail.description)}>
              {F.edit}
            </Button>
          </Group>
        </>
      ) : (
        <>
          <RichTextEditor
            value={draft}
            onChange={setDraft}
            tableName="project"
            testId="description-editor"
            ariaLabel={F.description}
          />
          <Group justify="flex-end" gap="xs">
            <Button size="compact-sm" variant="default" onClick={() => setDraft(null)} disabled={saving}>
              {tCore.common.cancel}
            </Button>
            <Button size="compact-sm" onClick={() => void save()} loading={saving}>
              {F.descriptionSave}
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}
