import { Button, Group, Modal } from '@mantine/core';
import type { ReactNode } from 'react';
import { tPreview } from '../../../lib/i18n/preview';
import classes from './editors.module.css';
import { EditStateBadge, LeaveConfirm, type TextEditing } from './text-editing';

const T = tPreview.editors;

/**
 * The frame both text editors share (the code dialog and the markdown overlay): a modal that
 * only closes through useTextEditing (asking about unsaved changes), the name with its edit
 * state, the editor's own tools, 保存 when editable, the close button, and the question
 * before leaving with unsaved changes.
 */
export function EditorShell(props: {
  editing: TextEditing;
  name: string;
  testId: string;
  size?: number;
  fullScreen: boolean;
  /** The editor's own header tools, left of 保存. */
  tools?: ReactNode;
  children: ReactNode;
}) {
  const { editing, name } = props;
  return (
    <>
      <Modal.Root
        opened
        onClose={editing.requestClose}
        size={props.size}
        fullScreen={props.fullScreen}
        centered
        // Modal.Root does not read the theme's Modal defaults: spec §2 and §4 say it here.
        // Escape is useTextEditing's (it asks first when there are unsaved changes).
        closeOnClickOutside={false}
        closeOnEscape={false}
        // On the root: Modal.Content would also hand a className to its outer wrapper.
        classNames={{ content: classes.content, header: classes.header, body: classes.body }}
      >
        <Modal.Overlay />
        <Modal.Content data-testid={props.testId}>
          <Modal.Header>
            <div className={classes.titleRow}>
              <Modal.Title className={classes.title} title={name}>
                {name}
              </Modal.Title>
              <EditStateBadge editing={editing} />
            </div>
            <Group gap={6} wrap="nowrap">
              {props.tools}
              {editing.editable && (
                <Button
                  size="xs"
                  onClick={editing.save}
                  disabled={!editing.canSave}
                  loading={editing.saving}
                  data-testid="editor-save"
                >
                  {T.save}
                </Button>
              )}
              <Modal.CloseButton aria-label={T.close} disabled={editing.saving} />
            </Group>
          </Modal.Header>
          <Modal.Body>{props.children}</Modal.Body>
        </Modal.Content>
      </Modal.Root>
      <LeaveConfirm editing={editing} />
    </>
  );
}
