import crypto from 'node:crypto';
import { sql } from 'kysely';
import { z } from 'zod';
import { audit } from '../../platform/audit.ts';
import {
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  PASSWORD_MIN_LENGTH_SETTING,
  passwordMinLength,
} from '../../platform/auth/password-policy.ts';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import type { App } from '../../platform/http/route.ts';
import { type AppContext, route } from '../../platform/http/route.ts';
import { readSettings, SETTING_KEYS } from '../../platform/settings.ts';
import { docNumberingBody, readDocNumbering, storedDocNumbering } from './doc-numbering.ts';

/** sys_setting key: menus also list pages whose screens are not built yet (建设中). */
export const SHOW_UNFINISHED_PAGES_SETTING = 'ui.showUnfinishedPages';

/** A logo is kept in the database as a data URL (there is no file store): PNG, JPEG, WebP or GIF up to 200 KB. */
export const LOGO_MAX_BYTES = 200 * 1024;
const LOGO_PATTERN = /^data:image\/(png|jpeg|webp|gif);base64,([A-Za-z0-9+/]+={0,2})$/;

const percent = (label: string) =>
  z
    .union([z.number({ error: `请输入${label}` }), z.string({ error: `请输入${label}` })], {
      error: `请输入${label}`,
    })
    .transform((v) => String(v).trim())
    .refine((v) => /^\d{1,3}(\.\d{1,2})?$/.test(v), `${label}必须是 0 到 100 之间、最多两位小数的数`)
    .refine((v) => Number(v) <= 100, `${label}不能超过 100%`)
    .transform((v) => String(Number(v)));

/**
 * One group of settings: its keys, how a stored value reads (with the default when unset),
 * the body a change must match, and who reads it. Each group is one page section and one
 * GET/PUT pair under /api/v1/sysSetting/<name>.
 */
interface Group<T extends Record<string, unknown>> {
  name: string;
  label: string;
  keys: { [K in keyof T]: string };
  read(stored: Map<string, unknown>, ctx: AppContext): T;
  body: z.ZodType<T>;
  /** What the audit trail keeps of a value (the logo only as its size and digest). */
  auditView?(v: T): unknown;
}

const str = (v: unknown, fallback: string) => (typeof v === 'string' ? v : fallback);
const pct = (v: unknown) => {
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v : '';
  return /^\d+(\.\d+)?$/.test(s) ? String(Number(s)) : '0';
};
const int = (v: unknown, fallback: number) => {
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

interface Company extends Record<string, unknown> {
  companyName: string;
  logo: string | null;
}
const company: Group<Company> = {
  name: 'company',
  label: '公司信息',
  keys: { companyName: SETTING_KEYS.companyName, logo: SETTING_KEYS.companyLogo },
  read: (s) => ({
    companyName: str(s.get(SETTING_KEYS.companyName), 'RingMES 轴承有限公司'),
    logo:
      typeof s.get(SETTING_KEYS.companyLogo) === 'string'
        ? (s.get(SETTING_KEYS.companyLogo) as string)
        : null,
  }),
  body: z.strictObject({
    companyName: z
      .string({ error: '请输入公司名称' })
      .trim()
      .min(1, '请输入公司名称')
      .max(60, '公司名称不能超过 60 个字'),
    logo: z
      .string({ error: '公司标志必须是图片' })
      .nullable()
      .refine((v) => v === null || LOGO_PATTERN.test(v), '公司标志必须是 PNG、JPEG、WebP 或 GIF 图片')
      .refine(
        (v) => v === null || Buffer.byteLength(v.replace(/^data:[^,]*,/, ''), 'base64') <= LOGO_MAX_BYTES,
        `公司标志图片不能超过 ${LOGO_MAX_BYTES / 1024} KB`,
      ),
  }),
  auditView: (v) => ({
    companyName: v.companyName,
    logo: v.logo
      ? `图片 ${v.logo.length} 字符，sha256 ${crypto.createHash('sha256').update(v.logo).digest('hex').slice(0, 16)}`
      : null,
  }),
};

interface Session extends Record<string, unknown> {
  idleMinutes: number;
  absoluteHours: number;
}
const session: Group<Session> = {
  name: 'session',
  label: '会话超时',
  keys: { idleMinutes: SETTING_KEYS.sessionIdleMinutes, absoluteHours: SETTING_KEYS.sessionAbsoluteHours },
  read: (s, ctx) => ({
    idleMinutes: int(s.get(SETTING_KEYS.sessionIdleMinutes), ctx.config.session.idleMinutes),
    absoluteHours: int(s.get(SETTING_KEYS.sessionAbsoluteHours), ctx.config.session.absoluteHours),
  }),
  body: z
    .strictObject({
      idleMinutes: z
        .number({ error: '请输入空闲超时（分钟）' })
        .int('空闲超时必须是整数分钟')
        .min(5, '空闲超时不能少于 5 分钟')
        .max(10_080, '空闲超时不能超过 10080 分钟（7 天）'),
      absoluteHours: z
        .number({ error: '请输入会话最长时长（小时）' })
        .int('会话最长时长必须是整数小时')
        .min(1, '会话最长时长不能少于 1 小时')
        .max(720, '会话最长时长不能超过 720 小时（30 天）'),
    })
    .refine((v) => v.idleMinutes <= v.absoluteHours * 60, {
      path: ['idleMinutes'],
      message: '空闲超时不能长于会话最长时长',
    }),
};

interface Allowances extends Record<string, unknown> {
  overShipPercent: string;
  overIssuePercent: string;
  overDispatchPercent: string;
  overReceivePercent: string;
}
const allowances: Group<Allowances> = {
  name: 'allowances',
  label: '超量允差',
  keys: {
    overShipPercent: SETTING_KEYS.overShipPercent,
    overIssuePercent: SETTING_KEYS.overIssuePercent,
    overDispatchPercent: SETTING_KEYS.overDispatchPercent,
    overReceivePercent: SETTING_KEYS.overReceivePercent,
  },
  read: (s) => ({
    overShipPercent: pct(s.get(SETTING_KEYS.overShipPercent)),
    overIssuePercent: pct(s.get(SETTING_KEYS.overIssuePercent)),
    overDispatchPercent: pct(s.get(SETTING_KEYS.overDispatchPercent)),
    overReceivePercent: pct(s.get(SETTING_KEYS.overReceivePercent)),
  }),
  body: z.strictObject({
    overShipPercent: percent('超发比例'),
    overIssuePercent: percent('超领比例'),
    overDispatchPercent: percent('超派比例'),
    overReceivePercent: percent('超收比例'),
  }),
};

interface Inspection extends Record<string, unknown> {
  shipmentInspectionRequired: boolean;
}
const inspection: Group<Inspection> = {
  name: 'inspection',
  label: '出货检验',
  keys: { shipmentInspectionRequired: SETTING_KEYS.shipmentInspectionRequired },
  read: (s) => ({ shipmentInspectionRequired: s.get(SETTING_KEYS.shipmentInspectionRequired) === true }),
  body: z.strictObject({
    shipmentInspectionRequired: z.boolean({ error: '请选择发货前是否必须出货检验合格' }),
  }),
};

interface Sampling extends Record<string, unknown> {
  reducedApproved: boolean;
}
/** GB/T 2828.1 switching rules: whether 正常 may switch to 放宽 (modules/quality/sampling.ts). */
const sampling: Group<Sampling> = {
  name: 'sampling',
  label: '抽样检验',
  keys: { reducedApproved: SETTING_KEYS.samplingReducedApproved },
  read: (s) => ({ reducedApproved: s.get(SETTING_KEYS.samplingReducedApproved) === true }),
  body: z.strictObject({
    reducedApproved: z.boolean({ error: '请选择是否批准放宽检验' }),
  }),
};

interface Segregation extends Record<string, unknown> {
  approverNotReporter: boolean;
  checkerNotMaker: boolean;
}
/** 职责分离 (maker ≠ checker where wages or money move): each rule is on until switched off. */
const onUnlessOff = (v: unknown) => v !== false;
const segregation: Group<Segregation> = {
  name: 'segregation',
  label: '职责分离',
  keys: {
    approverNotReporter: SETTING_KEYS.approverNotReporter,
    checkerNotMaker: SETTING_KEYS.checkerNotMaker,
  },
  read: (s) => ({
    approverNotReporter: onUnlessOff(s.get(SETTING_KEYS.approverNotReporter)),
    checkerNotMaker: onUnlessOff(s.get(SETTING_KEYS.checkerNotMaker)),
  }),
  body: z.strictObject({
    approverNotReporter: z.boolean({ error: '请选择报工审核人是否不得为报工人' }),
    checkerNotMaker: z.boolean({ error: '请选择收付款确认人是否不得为制单人' }),
  }),
};

interface Costing extends Record<string, unknown> {
  overheadRates: { workshopId: number; basis: 'standard-minute' | 'hour'; rate: string }[];
  scrapPricePerKg: string | null;
}
const money = (label: string, places: number) =>
  z
    .union([z.number({ error: `请输入${label}` }), z.string({ error: `请输入${label}` })], {
      error: `请输入${label}`,
    })
    .transform((v) => String(v).trim())
    .refine(
      (v) => new RegExp(`^\\d{1,9}(\\.\\d{1,${places}})?$`).test(v),
      `${label}必须是不小于 0、最多 ${places} 位小数的数`,
    );
/**
 * 成本核算 (modules/production/product-cost.ts): the overhead rate of each workshop — per standard
 * minute of the good pieces reported, or per reported hour — and the scrap price per kg.
 */
const costing: Group<Costing> = {
  name: 'costing',
  label: '成本核算',
  keys: {
    overheadRates: SETTING_KEYS.costingOverheadRates,
    scrapPricePerKg: SETTING_KEYS.costingScrapPricePerKg,
  },
  read: (s) => {
    const rates = s.get(SETTING_KEYS.costingOverheadRates);
    const price = s.get(SETTING_KEYS.costingScrapPricePerKg);
    return {
      overheadRates: Array.isArray(rates) ? (rates as Costing['overheadRates']) : [],
      scrapPricePerKg: typeof price === 'string' ? price : null,
    };
  },
  body: z.strictObject({
    overheadRates: z
      .array(
        z.strictObject({
          workshopId: z.number({ error: '请选择车间' }).int('请选择车间').positive('请选择车间'),
          basis: z.enum(['standard-minute', 'hour'], { error: '分摊方式只能是：按标准工时、按实际工时' }),
          rate: money('制造费用分摊率', 6),
        }),
        { error: '制造费用分摊率必须是列表' },
      )
      .max(500, '车间不能超过 500 个')
      .refine((v) => new Set(v.map((x) => x.workshopId)).size === v.length, '每个车间只能设置一个分摊率'),
    scrapPricePerKg: money('废料回收价', 4).nullable(),
  }),
};

interface Planning extends Record<string, unknown> {
  weekdays: number[];
  holidays: string[];
  workdays: string[];
}
const days = (label: string) =>
  z
    .array(
      z
        .string({ error: `${label}必须是日期` })
        .regex(/^\d{4}-\d{2}-\d{2}$/, `${label}必须是 YYYY-MM-DD 格式的日期`)
        .refine(
          (d) =>
            !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) &&
            new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
          `${label}不是有效日期`,
        ),
      { error: `${label}必须是日期列表` },
    )
    .max(1000, `${label}不能超过 1000 天`)
    .transform((v) => [...new Set(v)].sort());
/**
 * 生产日历 (modules/production/mrp.ts): the factory's working days, in which MRP counts lead times
 * and dates planned orders — the weekdays worked, holidays and extra working days (调休). Unset,
 * every day is a working day.
 */
const planning: Group<Planning> = {
  name: 'planning',
  label: '生产日历',
  keys: {
    weekdays: SETTING_KEYS.planningWeekdays,
    holidays: SETTING_KEYS.planningHolidays,
    workdays: SETTING_KEYS.planningWorkdays,
  },
  read: (s) => {
    const list = (k: string) => {
      const v = s.get(k);
      return Array.isArray(v) ? v : null;
    };
    return {
      weekdays: (list(SETTING_KEYS.planningWeekdays) as number[] | null) ?? [1, 2, 3, 4, 5, 6, 7],
      holidays: (list(SETTING_KEYS.planningHolidays) as string[] | null) ?? [],
      workdays: (list(SETTING_KEYS.planningWorkdays) as string[] | null) ?? [],
    };
  },
  body: z
    .strictObject({
      weekdays: z
        .array(z.number({ error: '工作日必须是 1（周一）到 7（周日）' }).int().min(1).max(7), {
          error: '请选择工作日',
        })
        .min(1, '至少选择一个工作日')
        .transform((v) => [...new Set(v)].sort()),
      holidays: days('节假日'),
      workdays: days('调休工作日'),
    })
    .superRefine((v, ctx) => {
      const both = v.workdays.find((d) => v.holidays.includes(d));
      if (both)
        ctx.addIssue({ code: 'custom', path: ['workdays'], message: `${both} 不能既是节假日又是调休工作日` });
    }),
};

const GROUPS = [company, session, allowances, inspection, sampling, segregation, costing, planning] as Group<
  Record<string, unknown>
>[];

async function readGroup(db: Db, ctx: AppContext, g: Group<Record<string, unknown>>) {
  return g.read(await readSettings(db, Object.values(g.keys)), ctx);
}

async function showUnfinishedPages(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('sysSetting')
    .select('value')
    .where('key', '=', SHOW_UNFINISHED_PAGES_SETTING)
    .executeTakeFirst();
  return row?.value === true;
}

/** Stores one setting, in the caller's transaction. */
async function storeSetting(trx: Db, user: AuthUser, key: string, value: unknown) {
  const json = JSON.stringify(value);
  await trx
    .insertInto('sysSetting')
    .values({ key, value: json, updatedBy: user.id })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        value: json,
        updatedBy: user.id,
        updatedAt: sql`now()`,
        version: sql`sys_setting.version + 1`,
      }),
    )
    .execute();
}

/** Stores one setting and audits the change, in the caller's transaction. */
async function saveSetting(
  trx: Db,
  user: AuthUser,
  requestId: string,
  key: string,
  before: unknown,
  after: Record<string, unknown>,
  value: unknown,
) {
  await storeSetting(trx, user, key, value);
  await audit(trx, user, { entity: 'setting', entityId: key, action: 'update', before, after }, requestId);
}

/**
 * The settings of 系统设置 (sys_setting). Every signed-in user reads them (the change-password
 * dialog shows the minimum; the menus follow the interface setting; printouts show the company);
 * changing them needs `system:setting:edit`. The password minimum may only raise the spec's 6.
 * Each change is one transaction that stores the values and writes one audit row (before/after).
 */
export function settingRoutes(app: App) {
  for (const g of GROUPS) {
    route(app, {
      method: 'GET',
      url: `/api/v1/sysSetting/${g.name}`,
      permission: 'authenticated',
      handler: ({ app: ctx }) => readGroup(ctx.db, ctx, g),
    });
    route(app, {
      method: 'PUT',
      url: `/api/v1/sysSetting/${g.name}`,
      permission: 'system:setting:edit',
      body: g.body,
      async handler({ body, user, req, app: ctx }) {
        await ctx.db.transaction().execute(async (trx) => {
          // Serialises concurrent changes of the same group (the before of the audit row is exact).
          await sql`SELECT pg_advisory_xact_lock(724101, ${GROUPS.indexOf(g)})`.execute(trx);
          const before = await readGroup(trx, ctx, g);
          for (const [field, key] of Object.entries(g.keys)) await storeSetting(trx, user, key, body[field]);
          const view = g.auditView ?? ((v: unknown) => v);
          await audit(
            trx,
            user,
            {
              entity: 'setting',
              entityId: g.name,
              action: 'update',
              before: view(before),
              after: view(body),
            },
            req.id,
          );
        });
        return readGroup(ctx.db, ctx, g);
      },
    });
  }

  // The login page shows the company before anyone signs in: its name and logo only.
  route(app, {
    method: 'GET',
    url: '/api/v1/sysSetting/brand',
    permission: 'public',
    handler: ({ app: ctx }) => readGroup(ctx.db, ctx, company as Group<Record<string, unknown>>),
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/sysSetting/docPrefixes',
    permission: 'authenticated',
    handler: ({ app: { db } }) => readDocNumbering(db),
  });

  // Takes effect at the next number handed out (nextDocNo reads the setting on each call).
  route(app, {
    method: 'PUT',
    url: '/api/v1/sysSetting/docPrefixes',
    permission: 'system:setting:edit',
    body: docNumberingBody(),
    async handler({ body, user, req, app: { db } }) {
      await db.transaction().execute(async (trx) => {
        // The groups' lock, on a number none of them uses.
        await sql`SELECT pg_advisory_xact_lock(724101, ${GROUPS.length})`.execute(trx);
        const before = storedDocNumbering(await readDocNumbering(trx));
        const after = storedDocNumbering(body);
        await storeSetting(trx, user, SETTING_KEYS.docNumbering, after);
        await audit(
          trx,
          user,
          { entity: 'setting', entityId: 'docPrefixes', action: 'update', before, after },
          req.id,
        );
      });
      return readDocNumbering(db);
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/sysSetting/passwordPolicy',
    permission: 'authenticated',
    async handler({ app: { db } }) {
      return { minLength: await passwordMinLength(db) };
    },
  });

  route(app, {
    method: 'PUT',
    url: '/api/v1/sysSetting/passwordPolicy',
    permission: 'system:setting:edit',
    body: z.strictObject({
      minLength: z
        .number({ error: '请输入密码最小长度' })
        .int('密码最小长度必须是整数')
        .min(MIN_PASSWORD_LENGTH, `密码最小长度不能小于 ${MIN_PASSWORD_LENGTH}`)
        .max(MAX_PASSWORD_LENGTH, `密码最小长度不能大于 ${MAX_PASSWORD_LENGTH}`),
    }),
    async handler({ body, user, req, app: { db } }) {
      await db.transaction().execute(async (trx) => {
        const before = { minLength: await passwordMinLength(trx) };
        await saveSetting(trx, user, req.id, PASSWORD_MIN_LENGTH_SETTING, before, body, body.minLength);
      });
      return { minLength: body.minLength };
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/sysSetting/ui',
    permission: 'authenticated',
    async handler({ app: { db } }) {
      return { showUnfinishedPages: await showUnfinishedPages(db) };
    },
  });

  route(app, {
    method: 'PUT',
    url: '/api/v1/sysSetting/ui',
    permission: 'system:setting:edit',
    body: z.strictObject({
      showUnfinishedPages: z.boolean({ error: '请选择是否在菜单中显示建设中的页面' }),
    }),
    async handler({ body, user, req, app: { db } }) {
      await db.transaction().execute(async (trx) => {
        const before = { showUnfinishedPages: await showUnfinishedPages(trx) };
        await saveSetting(
          trx,
          user,
          req.id,
          SHOW_UNFINISHED_PAGES_SETTING,
          before,
          body,
          body.showUnfinishedPages,
        );
      });
      return body;
    },
  });
}
