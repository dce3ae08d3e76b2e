import {
  Alert,
  Button,
  Card,
  Group,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconArrowLeft, IconCloudOff } from '@tabler/icons-react';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { checkForm } from '../../../shared/workflow/form';
import { CachedViewState } from '../../components/cached-state';
import { OfflineNote } from '../../components/offline-note';
import { EmptyBlock, notifySuccess } from '../../components/page-states';
import { OfflineError } from '../../lib/api';
import {
  clearDraft,
  fieldErrors,
  loadDraft,
  saveDraft,
  toFormValues,
  type StartDraft,
} from '../../lib/approval-start';
import { useCachedQuery } from '../../lib/cached-query';
import { tCore } from '../../lib/i18n-core';
import { tApprovalStart } from '../../lib/i18n/approval-start';
import { useOnline } from '../../lib/online';
import { useSession } from '../../lib/session';
import { ApprovalFormFields, type SetValue } from './form-renderer';
import { startCalls, startKeys, type Startable } from './start-data';
import { TemplateIcon } from './start-icons';

const S = tApprovalStart;
type Category = Startable['category'];

/**
 * Where a submitted request is seen next: 公文 in the 公文 我发起的 when the person has that
 * menu (oa.gongwen.mystart); everyone else, 普通员工 too, finds every request they started in
 * 审批 → 我发起的, which lists 公文 as well.
 */
const MYSTART = { to: '/approve/process-mystart', search: { state: 'mystart' } };
const GONGWEN_MYSTART = { to: '/gongwen/process-mystart', search: {} };
const GONGWEN_MYSTART_KEY = 'oa.gongwen.mystart';

/** /approve/start-approve: 发起审批 of every template, the 公文 ones under their own heading. */
export function StartApprovePage() {
  return <StartApprove />;
}

/**
 * Lists the templates the person may start (workflowTemplate/startable), by group; choosing
 * one opens its form (`?templateId=` in the URL, so 返回 and reload work). Without a
 * `category` it offers both: 普通审批 by their groups, then every 公文 template under 公文
 * (issue 17 §4: whatever group a template has, marking it 公文 in 审批设置 moves it there).
 */
export function StartApprove({ category }: { category?: Category }) {
  const navigate = useNavigate();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const rawId = useRouterState({ select: (s) => (s.location.search as { templateId?: unknown }).templateId });
  const templateId = Number(rawId);
  const view = useCachedQuery<Startable[]>({
    queryKey: startKeys.startable,
    fetch: ({ signal }) => startCalls.startable(signal),
  });
  const templates = (view.data ?? []).filter((tp) => !category || tp.category === category);
  const chosen = templates.find((tp) => tp.id === templateId);
  const choose = (id: number | null) =>
    void navigate({ to: pathname, search: id === null ? {} : { templateId: String(id) } });

  if (chosen) return <StartForm key={chosen.id} template={chosen} onBack={() => choose(null)} />;

  const groups = new Map<string, Startable[]>();
  for (const tp of templates.filter((x) => x.category === 'normal')) {
    const g = tp.groupName || S.ungrouped;
    groups.set(g, [...(groups.get(g) ?? []), tp]);
  }
  // Last, so a normal group that happens to be called 公文 cannot mix with the real ones.
  const gongwen = templates.filter((x) => x.category === 'gongwen');
  const sections = [...groups].map(([title, list]) => ({ key: `g:${title}`, title, list }));
  if (gongwen.length) sections.push({ key: 'gongwen', title: S.gongwenGroup, list: gongwen });
  return (
    <Stack gap="md" data-testid="start-approve-page">
      <Group justify="space-between" wrap="wrap">
        <Title order={3}>{category === 'gongwen' ? S.gongwenTitle : S.title}</Title>
        <OfflineNote view={view} />
      </Group>
      {rawId !== undefined && view.status === 'ready' && (
        <Alert color="yellow" variant="light">
          {S.templateGone}
        </Alert>
      )}
      <CachedViewState view={view} />
      {view.status === 'ready' &&
        (templates.length === 0 ? (
          <EmptyBlock title={S.empty} description={S.emptyHint} />
        ) : (
          <Card withBorder radius="md" p="md">
            <Stack gap="lg">
              <Text c="dimmed" size="sm">
                {S.choose}
              </Text>
              {sections.map(({ key, title, list }) => (
                <Stack
                  key={key}
                  gap="xs"
                  data-testid={key === 'gongwen' ? 'start-group-gongwen' : 'start-group'}
                >
                  <Text fw={600} size="sm">
                    {title}
                  </Text>
                  <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} spacing="sm">
                    {list.map((tp) => (
                      <UnstyledButton
                        key={tp.id}
                        onClick={() => choose(tp.id)}
                        data-testid="start-template"
                        style={{
                          border: '1px solid var(--mantine-color-default-border)',
                          borderRadius: 'var(--mantine-radius-md)',
                          padding: 'var(--mantine-spacing-sm)',
                          minHeight: 56,
                        }}
                      >
                        <Group gap="sm" wrap="nowrap">
                          <ThemeIcon variant="light" size={36} radius="md">
                            <TemplateIcon name={tp.icon} />
                          </ThemeIcon>
                          <Text size="sm" fw={500} truncate>
                            {tp.name}
                          </Text>
                        </Group>
                      </UnstyledButton>
                    ))}
                  </SimpleGrid>
                </Stack>
              ))}
            </Stack>
          </Card>
        ))}
    </Stack>
  );
}

/**
 * One template's form. The draft is saved on every change (lib/approval-start), so leaving,
 * reloading or losing the network keeps it; it is forgotten only once the request is started.
 */
function StartForm({ template, onBack }: { template: Startable; onBack: () => void }) {
  const navigate = useNavigate();
  const current = useSession();
  const userId = current?.user.userId ?? 0;
  const online = useOnline();
  const [draft, setDraft] = useState<StartDraft>(() => loadDraft(userId, template.id));
  const [tried, setTried] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [offlineRefused, setOfflineRefused] = useState(false);
  const [saving, setSaving] = useState(false);
  const [busy, setBusy] = useState<Record<string, boolean>>({});
  // One key per attempt: a repeated click or a retry after a lost answer starts one request.
  const attemptKey = useRef(crypto.randomUUID());

  useEffect(() => saveDraft(userId, template.id, draft), [userId, template.id, draft]);
  // Shown from the first attempt on, and updated as the person corrects them.
  const errors = useMemo(
    () => (tried ? fieldErrors(template.fields, toFormValues(template.fields, draft)) : {}),
    [tried, draft, template.fields],
  );

  const setValue: SetValue = useCallback(
    (id, fn) => setDraft((d) => ({ ...d, values: { ...d.values, [id]: fn(d.values[id]) } })),
    [],
  );
  const onBusy = useCallback((id: string, b: boolean) => setBusy((m) => ({ ...m, [id]: b })), []);

  const submit = async () => {
    setTried(true);
    setFailure(null);
    const values = toFormValues(template.fields, draft);
    const problems = fieldErrors(template.fields, values);
    const first = template.fields.find((f) => problems[f.id]);
    if (first) {
      setFailure(S.fixErrors);
      // On a phone the first problem may be a screen away from the button.
      document.querySelector(`[data-testid="field-${first.id}"]`)?.scrollIntoView({ block: 'center' });
      return;
    }
    if (Object.values(busy).some(Boolean)) {
      setFailure(S.waitUploads);
      return;
    }
    if (!online) {
      setOfflineRefused(true);
      return;
    }
    const checked = checkForm(template.fields, values);
    if (!checked.ok) {
      setFailure(checked.message);
      return;
    }
    setSaving(true);
    setOfflineRefused(false);
    try {
      await startCalls.start(
        { templateId: template.id, form: checked.form, priority: draft.priority },
        attemptKey.current,
      );
      clearDraft(userId, template.id);
      notifySuccess(S.submitted);
      const next =
        template.category === 'gongwen' && current?.menu.grantedKeys.includes(GONGWEN_MYSTART_KEY)
          ? GONGWEN_MYSTART
          : MYSTART;
      void navigate({ to: next.to, search: next.search });
    } catch (err) {
      if (err instanceof OfflineError) setOfflineRefused(true);
      else {
        setFailure(err instanceof Error ? err.message : tCore.errors.server);
        // Refused: a corrected form is a new attempt.
        attemptKey.current = crypto.randomUUID();
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack gap="md" maw={760} data-testid="start-form">
      <Group gap="xs" wrap="nowrap">
        <Button variant="subtle" size="compact-sm" leftSection={<IconArrowLeft size={14} />} onClick={onBack}>
          {S.back}
        </Button>
      </Group>
      <Group gap="sm" wrap="nowrap">
        <ThemeIcon variant="light" size={40} radius="md">
          <TemplateIcon name={template.icon} size={24} />
        </ThemeIcon>
        <Title order={3}>{S.formTitle(template.name)}</Title>
      </Group>
      {(!online || offlineRefused) && (
        <Alert color="yellow" variant="light" icon={<IconCloudOff size={18} />} data-testid="start-offline">
          {S.offline}
        </Alert>
      )}
      <Card withBorder radius="md" p="md">
        <Stack gap="md">
          <ApprovalFormFields
            fields={template.fields}
            values={draft.values}
            setValue={setValue}
            errors={errors}
            onBusy={onBusy}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {S.priority}
            </Text>
            <SegmentedControl
              value={String(draft.priority)}
              onChange={(v) => setDraft((d) => ({ ...d, priority: Number(v) as 1 | 2 | 3 }))}
              data={([1, 2, 3] as const).map((p) => ({ value: String(p), label: S.priorities[p] }))}
              style={{ alignSelf: 'flex-start' }}
              data-testid="start-priority"
            />
          </Stack>
          {failure && (
            <Alert color="red" variant="light" role="alert" data-testid="start-failure">
              {failure}
            </Alert>
          )}
          <Group justify="space-between" wrap="wrap" gap="sm">
            <Text size="xs" c="dimmed">
              {S.draftKept}
            </Text>
            <Button
              onClick={() => void submit()}
              loading={saving}
              disabled={!online}
              data-testid="start-submit"
            >
              {S.submit}
            </Button>
          </Group>
        </Stack>
      </Card>
    </Stack>
  );
}
