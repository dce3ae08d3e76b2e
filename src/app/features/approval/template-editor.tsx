import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  List,
  Radio,
  Select,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { dialogs } from '../../lib/dialogs';
import { IconArrowLeft, IconDeviceFloppy, IconSend } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useBlocker } from '@tanstack/react-router';
import { useState } from 'react';
import { TemplateMeta, type TemplateSaveBody } from '../../../shared/api/workflow';
import type { WorkflowDefinition } from '../../../shared/workflow/definition';
import { markErrors } from '../../../shared/workflow/validate';
import { errorToast } from '../../lib/api';
import { tCore } from '../../lib/i18n-core';
import { tDesigner } from '../../lib/i18n/designer';
import { emptyDefinition, formProblems } from '../../lib/workflow-designer';
import { notifySuccess } from '../../components/page-states';
import {
  designerCalls,
  designerKeys,
  problemsOf,
  type Problem,
  type TemplateDetailData,
} from './designer-data';
import { DesignerFlow } from './designer-flow';
import { TargetField } from './designer-picker';
import { TEMPLATE_ICONS, TemplateIcon } from './template-icon';
import { TemplateForm } from './template-form';

const E = tDesigner;

interface Meta {
  name: string;
  icon: string;
  groupName: string;
  category: 'normal' | 'gongwen';
}

/** Asks before unsaved changes are dropped; resolves true to leave. */
export function confirmLeave(): Promise<boolean> {
  return new Promise((resolve) => {
    dialogs.openConfirmModal({
      title: E.unsaved,
      children: <Text size="sm">{E.leaveConfirm}</Text>,
      labels: { confirm: tCore.common.confirm, cancel: tCore.common.cancel },
      confirmProps: { color: 'red' },
      closeOnClickOutside: false,
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
    });
  });
}

/**
 * One template: 基础设置 (name, icon, group, category, who may start), 表单设计 and 流程设计, with
 * 保存草稿 and 发布. Publishing saves first, then asks the server, whose refusal
 * (流程设置不完整，无法发布) lists the problems node by node. Leaving with unsaved changes asks.
 */
export function TemplateEditor({
  initial,
  onClose,
}: {
  initial: TemplateDetailData | null;
  onClose: (savedId?: number) => void;
}) {
  const queryClient = useQueryClient();
  const [id, setId] = useState<number | null>(initial?.id ?? null);
  const [meta, setMeta] = useState<Meta>({
    name: initial?.name ?? '',
    icon: initial?.icon || 'calendar',
    groupName: initial?.groupName ?? '',
    category: initial?.category ?? 'normal',
  });
  const [def, setDef] = useState<WorkflowDefinition>(() => initial?.definition ?? emptyDefinition());
  const [dirty, setDirty] = useState(initial === null);
  const [tab, setTab] = useState<string>('basic');
  const [busy, setBusy] = useState<'save' | 'publish' | null>(null);
  const [problems, setProblems] = useState<{ title: string; list: Problem[] | string[] } | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);

  useBlocker({
    shouldBlockFn: async () => (dirty ? !(await confirmLeave()) : false),
    enableBeforeUnload: () => dirty,
  });

  const changeMeta = (patch: Partial<Meta>) => {
    setMeta({ ...meta, ...patch });
    setDirty(true);
  };
  const changeDef = (next: WorkflowDefinition) => {
    setDef(next);
    setDirty(true);
  };

  /** Saves the draft; returns the id, or null when it could not (the reason is shown). */
  const save = async (): Promise<number | null> => {
    const metaCheck = TemplateMeta.safeParse(meta);
    if (!metaCheck.success) {
      setNameError(metaCheck.error.issues[0]?.message ?? null);
      setTab('basic');
      return null;
    }
    const bad = formProblems(def.fields);
    if (bad.length) {
      setProblems({ title: E.fixFirst, list: bad });
      setTab('form');
      return null;
    }
    const ctx = { fields: def.fields, directorMaxLevel: def.directorMaxLevel };
    const body: TemplateSaveBody = {
      ...(id ? { id } : {}),
      ...metaCheck.data,
      definition: { ...def, nodeConfig: markErrors(def.nodeConfig, ctx) },
    };
    try {
      const saved = await designerCalls.save(body);
      setId(saved.id);
      setDirty(false);
      setProblems(null);
      void queryClient.invalidateQueries({ queryKey: designerKeys.all });
      return saved.id;
    } catch {
      return null; // the client toasted the server's reason; the form stays as typed
    }
  };

  const onSave = async () => {
    setBusy('save');
    if ((await save()) !== null) notifySuccess(E.saved);
    setBusy(null);
  };
  const onPublish = async () => {
    setBusy('publish');
    try {
      // A saved, unchanged draft is published as it is.
      const saved = !dirty && id !== null ? id : await save();
      if (saved === null) return;
      try {
        const { version } = await designerCalls.publish(saved);
        notifySuccess(E.published(version));
        setProblems(null);
        void queryClient.invalidateQueries({ queryKey: designerKeys.all });
      } catch (err) {
        const list = problemsOf(err);
        if (list) {
          setProblems({ title: E.publishRefused, list });
          setTab('flow');
        } else if (err instanceof Error) errorToast(err.message);
      }
    } finally {
      setBusy(null);
    }
  };
  const back = async () => {
    if (dirty && !(await confirmLeave())) return;
    // Not dirty any more: the blocker lets the list through.
    setDirty(false);
    onClose(id ?? undefined);
  };

  return (
    <Stack gap="sm" data-testid="template-editor">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          <Tooltip label={E.back}>
            <ActionIcon variant="subtle" aria-label={E.back} onClick={() => void back()}>
              <IconArrowLeft size={18} />
            </ActionIcon>
          </Tooltip>
          <TemplateIcon name={meta.icon} />
          <Title order={4} style={{ minWidth: 0 }} lineClamp={1}>
            {meta.name || E.newTitle}
          </Title>
          {dirty && (
            <Badge color="orange" variant="light">
              {E.unsaved}
            </Badge>
          )}
        </Group>
        <Group gap="xs">
          <Button
            variant="default"
            leftSection={<IconDeviceFloppy size={16} />}
            loading={busy === 'save'}
            disabled={busy !== null}
            onClick={() => void onSave()}
          >
            {E.save}
          </Button>
          <Button
            leftSection={<IconSend size={16} />}
            loading={busy === 'publish'}
            disabled={busy !== null}
            onClick={() => void onPublish()}
          >
            {E.publish}
          </Button>
        </Group>
      </Group>

      {problems && (
        <Alert
          color="red"
          title={problems.title}
          withCloseButton
          onClose={() => setProblems(null)}
          data-testid="publish-problems"
        >
          <Text size="sm">{E.publishProblemsHint}</Text>
          <List size="sm" mt={4}>
            {problems.list.map((p, i) => (
              <List.Item key={i}>{typeof p === 'string' ? p : `${p.nodeName}：${p.message}`}</List.Item>
            ))}
          </List>
        </Alert>
      )}

      <Tabs value={tab} onChange={(v) => setTab(v ?? 'basic')} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="basic">{E.tabs.basic}</Tabs.Tab>
          <Tabs.Tab value="form">{E.tabs.form}</Tabs.Tab>
          <Tabs.Tab value="flow">{E.tabs.flow}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="basic" pt="md">
          <Stack gap="md" maw={560}>
            <TextInput
              label={E.basic.name}
              placeholder={E.basic.namePlaceholder}
              withAsterisk
              maxLength={30}
              value={meta.name}
              error={nameError}
              onChange={(e) => {
                setNameError(null);
                changeMeta({ name: e.currentTarget.value });
              }}
            />
            <Stack gap={6}>
              <Text size="sm" fw={500}>
                {E.basic.icon}
              </Text>
              <Group gap={6}>
                {TEMPLATE_ICONS.map((name) => (
                  <Tooltip key={name} label={E.icons[name]}>
                    <ActionIcon
                      size="xl"
                      variant={meta.icon === name ? 'filled' : 'default'}
                      aria-label={E.icons[name]}
                      aria-pressed={meta.icon === name}
                      onClick={() => changeMeta({ icon: name })}
                    >
                      <TemplateIcon name={name} plain />
                    </ActionIcon>
                  </Tooltip>
                ))}
              </Group>
            </Stack>
            <TextInput
              label={E.basic.group}
              placeholder={E.basic.groupPlaceholder}
              maxLength={30}
              value={meta.groupName}
              onChange={(e) => changeMeta({ groupName: e.currentTarget.value })}
            />
            {/* Two choices a finger reaches at once on a tablet (a select needs two taps). */}
            <Radio.Group
              label={E.basic.category}
              description={E.basic.categoryHint}
              value={meta.category}
              onChange={(v) => changeMeta({ category: v as Meta['category'] })}
              data-testid="template-category"
            >
              <Group gap="lg" mt={6}>
                <Radio value="normal" label={E.category.normal} />
                <Radio value="gongwen" label={E.category.gongwen} />
              </Group>
            </Radio.Group>
            <TargetField
              label={E.basic.scope}
              description={E.basic.scopeHint}
              buttonLabel={E.basic.chooseScope}
              kinds={[1, 3]}
              value={def.flowPermission}
              onChange={(flowPermission) => changeDef({ ...def, flowPermission })}
              testId="template-scope"
            />
            <Select
              label={E.basic.maxLevel}
              allowDeselect={false}
              value={String(def.directorMaxLevel)}
              data={Array.from({ length: 10 }, (_, i) => ({ value: String(i + 1), label: String(i + 1) }))}
              onChange={(v) => v && changeDef({ ...def, directorMaxLevel: Number(v) })}
              w={200}
            />
            {/* Which attendance column a passed request feeds (考勤统计); unset, the name decides. */}
            <Select
              label={E.basic.attendance}
              description={E.basic.attendanceHint}
              allowDeselect={false}
              value={def.attendanceKind ?? 'auto'}
              data={(['auto', 'leave', 'travel', 'overtime', 'none'] as const).map((k) => ({
                value: k,
                label: E.basic.attendanceKinds[k],
              }))}
              onChange={(v) => {
                if (!v) return;
                const next = { ...def };
                if (v === 'auto') delete next.attendanceKind;
                else next.attendanceKind = v as NonNullable<typeof def.attendanceKind>;
                changeDef(next);
              }}
              w={320}
            />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="form" pt="md">
          <TemplateForm
            fields={def.fields}
            root={def.nodeConfig}
            onChange={(fields) => changeDef({ ...def, fields })}
          />
        </Tabs.Panel>
        <Tabs.Panel value="flow" pt="md">
          <DesignerFlow templateId={id} def={def} onChange={changeDef} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
