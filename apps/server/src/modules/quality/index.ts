import {
  AQL_VALUES,
  type Aql,
  inspectionTaskResource as def,
  INSPECTION_LEVELS,
  type InspectionLevel,
  inspectionItemResource,
  inspectionTemplateResource,
  measurementSubgroupResource,
  ringStandardOverrideResource,
  SamplingInputError,
  SEVERITIES,
  type Severity,
  samplingPlan,
} from '@ringmes/domain';
import { z } from 'zod';
import type { Db } from '../../platform/db/db.ts';
import { fieldError, forbidden, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { idParams, zx } from '../../platform/http/validation.ts';
import { businessDay } from '../../platform/numbering.ts';
import type { ServerArea } from '../../platform/resource/area.ts';
import { getRecord } from '../../platform/resource/crud.ts';
import { alsoReadBy } from '../../platform/resource/options.ts';
import { assertInScope, gate } from '../../platform/resource/scope.ts';
import {
  assignTask,
  inspectionItemHooks,
  inspectionTaskHooks,
  inspectionTaskTransitions,
  inspectionTemplateHooks,
  resultsOf,
  saveResults,
} from './inspection.ts';
import { measurementHooks, measurementRoutes } from './measurement.ts';
import { measurementImportRoutes } from './measurement-import.ts';
import { ringGeometryRoutes } from './ring-geometry.ts';
import { ringMatchingRoutes } from './ring-matching.ts';
import { ringStandardOverrideHooks, ringStandardRoutes } from './ring-standard.ts';
import { resumeSampling, taskSampling } from './sampling.ts';
import {
  outboundForInspection,
  planPatrols,
  runPatrolSchedules,
  tasksForOutbound,
  tasksOfOutbound,
} from './sources.ts';

/**
 * A quality engineer maintaining a step's item set picks the drawing its sizes come from
 * (检验模板 ▸ 依据图纸/工艺文件) without 技术部's pages: the technical documents' options.
 */
alsoReadBy('technical-document', ['quality:item:list']);

const resultBody = z.strictObject({
  results: z
    .array(
      z.strictObject({
        taskItemId: zx.id,
        sampleNo: z.number({ error: '样本号必须是数字' }).int().min(1, '样本号从 1 开始').max(2000),
        value: z
          .union([z.string().trim().max(20, '测量值过长'), z.number()])
          .transform((v) => (typeof v === 'number' ? String(v) : v))
          .nullable()
          .optional(),
        ok: z.boolean({ error: '计数项目只能是 OK 或 NG' }).nullable().optional(),
      }),
    )
    .max(5000, '一次最多保存 5000 个结果'),
});

async function taskInScope(db: Db, user: Parameters<typeof assertInScope>[0], id: number, action: string) {
  const record = await getRecord(db, def, id).catch(() => undefined);
  if (!record) throw notFound('检验单不存在或已被删除');
  assertInScope(user, def, action, record);
  return record;
}

/**
 * 巡检计划 runs by itself every PATROL_SCHEDULE_MINUTES (default 15; 0 turns it off; off under
 * tests, which call the run endpoint), as the admin user.
 */
function schedulePatrols(app: App) {
  const minutes = Number(process.env.PATROL_SCHEDULE_MINUTES ?? (process.env.VITEST ? 0 : 15));
  if (!(minutes > 0)) return;
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(async () => {
      try {
        const admin = await app.ringmes.db
          .selectFrom('appUser')
          .select(['id', 'userName', 'firstName', 'deptId'])
          .where('userName', '=', 'admin')
          .executeTakeFirst();
        if (!admin) return;
        const user = {
          ...(admin as { id: number; userName: string; firstName: string; deptId: number | null }),
          sessionId: 0,
          roleKeys: ['admin'],
          permissions: new Set<string>(),
          isAdmin: true,
        };
        await app.ringmes.db.transaction().execute((trx) => runPatrolSchedules(trx, user));
      } catch (err) {
        app.log.error({ err }, '巡检计划生成失败');
      }
    }, minutes * 60_000);
    timer.unref();
  });
  app.addHook('preClose', async () => clearInterval(timer));
}

function qualityRoutes(app: App) {
  schedulePatrols(app);
  ringMatchingRoutes(app);

  route(app, {
    method: 'GET',
    url: '/api/v1/inspection-task/results/:id',
    ...gate(def, 'list'),
    params: idParams,
    async handler({ params, user, app: { db } }) {
      const task = await taskInScope(db, user, params.id, 'list');
      return {
        ...(await resultsOf(db, params.id)),
        sampling: await taskSampling(db, { ...task, id: params.id, severity: task.samplingSeverity ?? null }),
      };
    },
  });

  // 恢复检验: a supplier × material discontinued under tightened inspection (9.4) starts again,
  // on tightened inspection, once the supplier's corrective action is accepted.
  route(app, {
    method: 'POST',
    url: '/api/v1/inspection-task/sampling-resume/:id',
    ...gate(def, 'inspect'),
    params: idParams,
    body: z.strictObject({
      reason: z
        .string({ error: '请填写恢复检验的依据' })
        .trim()
        .min(2, '请填写恢复检验的依据（供方纠正措施）')
        .max(500),
    }),
    async handler({ params, body, user, app: { db } }) {
      const task = await taskInScope(db, user, params.id, 'inspect');
      return db.transaction().execute((trx) => resumeSampling(trx, user, task, body.reason));
    },
  });

  route(app, {
    method: 'PUT',
    url: '/api/v1/inspection-task/results/:id',
    ...gate(def, 'inspect'),
    params: idParams,
    body: resultBody,
    async handler({ params, body, user, app: { db } }) {
      await taskInScope(db, user, params.id, 'inspect');
      return db.transaction().execute((trx) => saveResults(trx, user, params.id, body.results));
    },
  });

  // 生成出货检验: quality, or the keeper from his 销售出库 draft (its 生成出货检验 button).
  route(app, {
    method: 'POST',
    url: '/api/v1/inspection-task/for-outbound/:id',
    permission: 'quality:shipment:add',
    alsoAllowedBy: ['warehouse:salesOutbound:requestInspection'],
    params: idParams,
    async handler({ params, user, app: { db } }) {
      const ids = await db.transaction().execute((trx) => tasksForOutbound(trx, user, params.id));
      return { ids };
    },
  });

  // The 销售出库 a shipment inspection checks, read through the task.
  route(app, {
    method: 'GET',
    url: '/api/v1/inspection-task/outbound/:id',
    ...gate(def, 'list'),
    params: idParams,
    async handler({ params, user, app: { db } }) {
      const task = await taskInScope(db, user, params.id, 'list');
      const outbound = task.stockOutboundId
        ? await outboundForInspection(db, Number(task.stockOutboundId))
        : null;
      if (!outbound) throw notFound(`检验单 ${task.docNo} 没有关联销售出库单`);
      return outbound;
    },
  });

  // A 销售出库's 出货检验 tasks, for whoever reads sales outbounds (the keeper follows them there).
  route(app, {
    method: 'GET',
    url: '/api/v1/inspection-task/for-outbound/:id',
    permission: 'warehouse:salesOutbound:list',
    alsoAllowedBy: ['warehouse:outbound:list', 'quality:shipment:list'],
    params: idParams,
    handler: ({ params, app: { db } }) => tasksOfOutbound(db, params.id),
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/inspection-task/patrol-plan',
    permission: 'quality:process:add',
    body: z.strictObject({ planDate: zx.businessDay('计划日期').optional() }),
    async handler({ body, user, app: { db } }) {
      const ids = await db
        .transaction()
        .execute((trx) => planPatrols(trx, user, body.planDate ?? businessDay()));
      return { ids };
    },
  });

  // 认领: the inspector takes a waiting task; 指派: it is given to an inspector. Both only while
  // the task waits (待检验/检验中); the assignee must be an active user.
  route(app, {
    method: 'POST',
    url: '/api/v1/inspection-task/claim/:id',
    ...gate(def, 'inspect'),
    params: idParams,
    async handler({ params, user, app: { db } }) {
      const task = await taskInScope(db, user, params.id, 'inspect');
      return db.transaction().execute((trx) => assignTask(trx, user, task, user.id, false));
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/inspection-task/assign/:id',
    ...gate(def, 'inspect'),
    params: idParams,
    body: z.strictObject({ assigneeId: zx.id.nullable() }),
    async handler({ params, body, user, app: { db } }) {
      const task = await taskInScope(db, user, params.id, 'inspect');
      return db.transaction().execute((trx) => assignTask(trx, user, task, body.assigneeId, true));
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/patrol-schedule/run',
    permission: 'quality:process:add',
    body: z.strictObject({}).optional(),
    async handler({ user, app: { db } }) {
      return db.transaction().execute((trx) => runPatrolSchedules(trx, user));
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/inspection-item/sampling-plan',
    permission: 'quality:item:list',
    query: z.strictObject({
      lotSize: z.coerce
        .number({ error: '批量必须是数字' })
        .int('批量必须是整数')
        .min(1, '批量至少为 1')
        .max(100_000_000),
      level: z.enum(INSPECTION_LEVELS as [string, ...string[]], {
        error: '检验水平只能是 S-1…S-4、I、II、III',
      }),
      aql: z.enum(AQL_VALUES as unknown as [string, ...string[]], {
        error: 'AQL 不在 GB/T 2828.1 的优先值中（0.010 … 1000）',
      }),
      severity: z
        .enum(SEVERITIES.map((s) => s.value) as [Severity, ...Severity[]], {
          error: '检验严格度只能是 normal（正常）、tightened（加严）或 reduced（放宽）',
        })
        .optional(),
    }),
    async handler({ query, user }) {
      if (!user) throw forbidden();
      try {
        return samplingPlan(
          query.lotSize,
          query.level as InspectionLevel,
          query.aql as Aql,
          query.severity ?? 'normal',
        );
      } catch (e) {
        if (e instanceof SamplingInputError) throw fieldError(e.field, e.message);
        throw e;
      }
    },
  });
}

/**
 * 质量检测 and 计量检定: inspection items, templates and tasks (with the task's lifecycle), 巡检计划,
 * 轴承套圈标准 with customers' tighter limits, measurements (SPC) and their import, ring geometry
 * and 选配.
 */
export const qualityArea: ServerArea = {
  name: 'quality',
  resources: [
    { def: inspectionItemResource, hooks: inspectionItemHooks },
    { def: inspectionTemplateResource, hooks: inspectionTemplateHooks },
    { def, hooks: inspectionTaskHooks, transitions: inspectionTaskTransitions },
    { def: measurementSubgroupResource, hooks: measurementHooks },
    { def: ringStandardOverrideResource, hooks: ringStandardOverrideHooks },
  ],
  routes(app) {
    ringStandardRoutes(app);
    qualityRoutes(app);
    measurementRoutes(app);
    measurementImportRoutes(app);
    ringGeometryRoutes(app);
  },
};
