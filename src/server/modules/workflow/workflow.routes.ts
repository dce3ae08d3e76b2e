import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ConditionFieldsBody,
  ConditionFieldsQuery,
  CopytoUserListBody,
  TemplateEnableBody,
  TemplateIdQuery,
  TemplateSaveBody,
} from '../../../shared/api/workflow';
import { DONE } from '../../plugins/envelope';
import type { Access } from '../auth/access';
import type { WorkflowService } from './workflow.service';

/**
 * /singleMuseum/workflowConfig/*: the people, departments and roles the approval pickers offer
 * (spec §7). Any signed-in member of staff may read them: approvers pick a transfer target,
 * starters see copy-to recipients, administrators design flows.
 */
/** The menu grant of 审批设置: managing templates needs it (menu grant = API grant). */
export const APPROVAL_SETTING = 'oa.approve.setting';
const SETTING = APPROVAL_SETTING;

export function workflowRoutes(app: FastifyInstance, deps: { workflow: WorkflowService; access: Access }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post('/workflowConfig/copytoUserList', { schema: { body: CopytoUserListBody } }, async (req) =>
    deps.workflow.copytoUserList(req.body.userIds),
  );
  r.get('/workflowConfig/approverUserList', async () => deps.workflow.approverUserList());
  // The condition drawer's fields: for those who design flows (审批设置), like the template calls.
  r.get('/workflowConfig/condition', { schema: { querystring: ConditionFieldsQuery } }, async (req) => {
    await deps.access.require(req.user, SETTING);
    return deps.workflow.conditionFields(req.query.id);
  });
  r.post('/workflowConfig/condition', { schema: { body: ConditionFieldsBody } }, async (req) => {
    await deps.access.require(req.user, SETTING);
    return deps.workflow.conditionFields(req.body.templateId);
  });

  // Templates (审批设置); the spec shows no calls for saving and loading definitions.
  const { workflow, access } = deps;
  r.get('/workflowTemplate/list', async (req) => {
    await access.require(req.user, SETTING);
    return workflow.templates();
  });
  r.get('/workflowTemplate/detail', { schema: { querystring: TemplateIdQuery } }, async (req) => {
    await access.require(req.user, SETTING);
    return workflow.templateDetail(req.query.id);
  });
  r.post('/workflowTemplate/save', { schema: { body: TemplateSaveBody } }, async (req) => {
    await access.require(req.user, SETTING);
    return workflow.saveTemplate(req.user.id, req.body);
  });
  r.post('/workflowTemplate/publish', { schema: { body: TemplateIdQuery } }, async (req) => {
    await access.require(req.user, SETTING);
    return workflow.publish(req.user.id, req.body.id);
  });
  r.post('/workflowTemplate/enable', { schema: { body: TemplateEnableBody } }, async (req) => {
    await access.require(req.user, SETTING);
    await workflow.setEnabled(req.body.id, req.body.enabled);
    return DONE;
  });
  // 发起审批: every member of staff sees the templates they may start.
  r.get('/workflowTemplate/startable', async (req) => workflow.startable(req.user.id));
}
