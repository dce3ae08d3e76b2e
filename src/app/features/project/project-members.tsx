import { ActionIcon, Badge, Button, Divider, Group, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { IconTrash, IconUsers } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { PickerUser } from '../../../shared/api/project';
import { confirmAction, notifySuccess } from '../../components/page-states';
import { useDialogEscape } from '../../components/dialog-escape';
import { SearchField } from '../../components/search-field';
import { UserAvatar } from '../../components/user-avatar';
import { tProject } from '../../lib/i18n/project';
import { useOnline } from '../../lib/online';
import { filesCalls, filesKeys } from './files-data';
import { projectCalls, projectKeys } from './project-data';

const M = tProject.members;

/**
 * The project's collaborators from the board header (spec §7 projectUser/*): who is in
 * (getUserCooperation type 1, owner first), add colleagues found by name (getUser, then ours
 * addUser) and remove one after a confirmation (deleteUser: the server lets anyone leave and
 * the owner or an administrator remove others; the owner stays, and its refusal is toasted).
 */
export function ProjectMembers(props: {
  projectId: number;
  count: number;
  /** An archived project: the people are listed, not changed (the server refuses changes too). */
  readOnly?: boolean;
  onChanged: () => Promise<unknown>;
}) {
  const [open, setOpen] = useState(false);
  const online = useOnline();
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconUsers size={16} />}
        onClick={() => setOpen(true)}
        disabled={!online}
        title={online ? undefined : M.offline}
        data-testid="project-members"
      >
        {M.button(props.count)}
      </Button>
      {open && <MembersDialog {...props} onClose={() => setOpen(false)} />}
    </>
  );
}

function MembersDialog(props: {
  projectId: number;
  readOnly?: boolean;
  onClose: () => void;
  onChanged: () => Promise<unknown>;
}) {
  const { projectId } = props;
  const qc = useQueryClient();
  const [keyword, setKeyword] = useState('');
  const members = useQuery({
    queryKey: projectKeys.people(projectId),
    queryFn: ({ signal }) => projectCalls.people(projectId, signal),
  });
  const found = useQuery({
    queryKey: filesKeys.members(projectId, keyword),
    enabled: keyword !== '',
    queryFn: ({ signal }) => filesCalls.searchPeople(projectId, keyword, signal),
  });
  const changed = async () => {
    await Promise.all([
      qc.invalidateQueries({ queryKey: projectKeys.people(projectId) }),
      qc.invalidateQueries({ queryKey: ['project', 'members', projectId] }),
      props.onChanged(),
    ]);
  };
  const add = async (u: PickerUser) => {
    await filesCalls.addMembers(projectId, [u.userId]);
    notifySuccess(M.addedOk);
    await changed();
  };

  // Escape in the removal confirmation closes that, not the members dialog.
  const escape = useDialogEscape(props.onClose);
  return (
    <Modal {...escape} opened onClose={props.onClose} title={M.title} size={480} closeOnClickOutside={false}>
      <Stack gap="sm" data-testid="members-dialog">
        <ScrollArea.Autosize mah={260}>
          <Stack gap={4}>
            {(members.data ?? []).map((u) => (
              <Group key={u.userId} gap="xs" wrap="nowrap" data-testid="member">
                <UserAvatar name={u.userName} image={u.userImage} size="sm" />
                <Text size="sm" style={{ flex: 1 }}>
                  {u.userName}
                </Text>
                {u.isOwner ? (
                  <Badge size="sm" variant="light">
                    {M.owner}
                  </Badge>
                ) : props.readOnly ? null : (
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size="sm"
                    aria-label={`${M.remove}：${u.userName}`}
                    onClick={() =>
                      confirmAction({
                        title: M.removeTitle,
                        message: M.removeConfirm(u.userName),
                        confirmLabel: M.remove,
                        danger: true,
                        run: async () => {
                          await filesCalls.removeMember(projectId, u.userId);
                          notifySuccess(M.removed);
                          await changed();
                        },
                      })
                    }
                  >
                    <IconTrash size={14} />
                  </ActionIcon>
                )}
              </Group>
            ))}
          </Stack>
        </ScrollArea.Autosize>
        {props.readOnly ? (
          <Text size="sm" c="dimmed">
            {tProject.archive.membersNote}
          </Text>
        ) : (
          <>
            <Divider />
            <SearchField placeholder={M.search} maxLength={30} onSearch={setKeyword} />
            {keyword !== '' && found.data?.length === 0 && (
              <Text size="sm" c="dimmed">
                {M.searchEmpty}
              </Text>
            )}
            <Stack gap={4}>
              {(found.data ?? []).map((u) => (
                <Group key={u.userId} gap="xs" wrap="nowrap" data-testid="member-candidate">
                  <UserAvatar name={u.userName} image={u.userImage} size="sm" />
                  <Text size="sm" style={{ flex: 1 }}>
                    {u.userName}
                  </Text>
                  <Button
                    size="compact-sm"
                    variant="light"
                    disabled={u.status === 1}
                    onClick={() => void add(u).catch(() => {})}
                    aria-label={`${M.add} ${u.userName}`}
                  >
                    {u.status === 1 ? M.added : M.add}
                  </Button>
                </Group>
              ))}
            </Stack>
          </>
        )}
      </Stack>
    </Modal>
  );
}
