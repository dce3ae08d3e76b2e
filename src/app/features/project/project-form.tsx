import { Modal, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  PROJECT_NAME_MAX,
  PROJECT_TYPE_TEXT,
  PROJECT_TYPES,
  type ProjectRow,
  type ProjectType,
} from '../../../shared/api/project';
import { useDialogEscape } from '../../components/dialog-escape';
import { FormActions } from '../../components/form-actions';
import { notifySuccess } from '../../components/page-states';
import { ApiError, errorToast } from '../../lib/api';
import { tCore } from '../../lib/i18n-core';
import { tProject } from '../../lib/i18n/project';
import { projectCalls, projectKeys } from './project-data';

const F = tProject.form;
const E = tProject.edit;

export interface ProjectFormValues {
  name: string;
  type: ProjectType | null;
  startDate: string | null;
  endDate: string | null;
  /** The owner's user id as the Select holds it (editing only). */
  ownerId: string | null;
}

/** The date pickers hand 'YYYY-MM-DD' strings (Mantine dates 8+); '' when cleared. */
export const ymd = (d: string | null) => (d ? d.slice(0, 10) : null);

/** One form for 新建项目 and 编辑项目: the same rules and words as the server's (contract). */
export function useProjectForm(initialValues: ProjectFormValues) {
  return useForm<ProjectFormValues>({
    initialValues,
    validate: {
      name: (v) => (v.trim() ? null : F.nameEmpty),
      type: (v) => (v ? null : F.typeEmpty),
      endDate: (v, all) => (v && all.startDate && ymd(v)! < ymd(all.startDate)! ? F.datesOrder : null),
    },
  });
}

export function ProjectFormFields({ form }: { form: UseFormReturnType<ProjectFormValues> }) {
  return (
    <>
      <TextInput
        label={F.name}
        placeholder={F.namePlaceholder}
        withAsterisk
        maxLength={PROJECT_NAME_MAX}
        data-autofocus
        {...form.getInputProps('name')}
      />
      <Select
        label={F.type}
        withAsterisk
        allowDeselect={false}
        data={PROJECT_TYPES.map((k) => ({ value: k, label: PROJECT_TYPE_TEXT[k] }))}
        {...form.getInputProps('type')}
      />
      <SimpleGrid cols={2} spacing="sm">
        <DatePickerInput
          label={F.startDate}
          valueFormat="YYYY-MM-DD"
          clearable
          {...form.getInputProps('startDate')}
        />
        <DatePickerInput
          label={F.endDate}
          valueFormat="YYYY-MM-DD"
          clearable
          {...form.getInputProps('endDate')}
        />
      </SimpleGrid>
    </>
  );
}

/**
 * 编辑项目 (project/update): name, type, dates and the owner, chosen among the collaborators
 * (the server refuses anyone else: 项目负责人必须是项目成员, shown beside the field). Opened from a
 * list card and from the board's header; mounted only while open, so it starts from the row.
 */
export function ProjectEditDialog({ project, onClose }: { project: ProjectRow; onClose: () => void }) {
  const qc = useQueryClient();
  const [saving, setSaving] = useState(false);
  const people = useQuery({
    queryKey: projectKeys.people(project.projectId),
    queryFn: ({ signal }) => projectCalls.people(project.projectId, signal),
  });
  const owners = (people.data ?? []).map((p) => ({ value: String(p.userId), label: p.userName }));
  if (!owners.some((o) => o.value === String(project.ownerId)))
    owners.unshift({ value: String(project.ownerId), label: project.ownerName });
  const form = useProjectForm({
    name: project.name,
    type: project.type,
    startDate: project.startDate,
    endDate: project.endDate,
    ownerId: String(project.ownerId),
  });
  const escape = useDialogEscape(onClose, !saving);
  const submit = form.onSubmit(async (v) => {
    setSaving(true);
    try {
      await projectCalls.update({
        projectId: project.projectId,
        name: v.name.trim(),
        type: v.type!,
        startDate: ymd(v.startDate) ?? '',
        endDate: ymd(v.endDate) ?? '',
        description: project.description,
        ownerId: v.ownerId ? Number(v.ownerId) : undefined,
      });
      notifySuccess(E.saved);
      await qc.invalidateQueries({ queryKey: projectKeys.all });
      onClose();
    } catch (e) {
      // The owner's refusal beside its field, any other as a toast; what was typed stays.
      const message = e instanceof Error ? e.message : tCore.errors.server;
      if (e instanceof ApiError && message.includes('负责人')) form.setFieldError('ownerId', message);
      else errorToast(message);
    } finally {
      setSaving(false);
    }
  });
  return (
    <Modal opened onClose={onClose} title={E.title} {...escape} data-testid="project-edit">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <ProjectFormFields form={form} />
          <Select
            label={E.owner}
            placeholder={E.ownerPlaceholder}
            description={E.ownerHint}
            withAsterisk
            allowDeselect={false}
            searchable
            data={owners}
            {...form.getInputProps('ownerId')}
          />
          <FormActions onCancel={onClose} saving={saving} mt="sm" />
        </Stack>
      </form>
    </Modal>
  );
}
