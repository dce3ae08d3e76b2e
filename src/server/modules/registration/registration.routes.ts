import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PendingStaffCount,
  REGISTER_CALLS_PER_MINUTE,
  RegisterBody,
  RegisterDept,
} from '../../../shared/api/registration';
import { perAddress } from '../../plugins/flood-guard';
import type { Access } from '../auth/access';
import { PERSON_PENDING, type RegistrationService } from './registration.service';

/**
 * The public registration calls (/singleMuseum/register/*: no session; shared/api/registration.ts)
 * and the badge count of 人员审核 (/sysUserPending/count). The record's list, detail and its
 * transitions 通过 and 拒绝 are the records engine's (server/records), from its definition.
 */
export function registrationRoutes(
  app: FastifyInstance,
  deps: { registration: RegistrationService; access: Access },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { registration, access } = deps;
  const open = { public: true, rateLimit: perAddress(REGISTER_CALLS_PER_MINUTE) };

  r.get(
    '/register/depts',
    { config: { ...open, summary: '注册 · 可选部门（公开）', answer: z.array(RegisterDept) } },
    async () => registration.departments(),
  );
  r.post(
    '/register/apply',
    {
      schema: { body: RegisterBody },
      config: { ...open, summary: '注册 · 提交申请（公开，按地址限频）' },
    },
    async (req) => registration.apply(req.body, req.ip),
  );
  r.get(
    '/sysUserPending/count',
    { config: { summary: '人员审核 · 待审核数（角标）', answer: PendingStaffCount } },
    async (req) => {
      await access.require(req.user, PERSON_PENDING);
      return registration.pendingCount();
    },
  );
}
