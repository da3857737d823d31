import { fieldOf } from '@ringmes/domain';
/** A field error as the client maps it onto a form. */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * An expected failure answered with the envelope: HTTP status, the string `code` of the
 * architecture's error table and a Chinese message for the user.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors?: FieldError[],
  ) {
    super(message);
  }
}

export const badRequest = (message: string, errors?: FieldError[]) =>
  new AppError(400, '400', message, errors);
export const fieldError = (field: string, message: string) => badRequest(message, [{ field, message }]);
export const unauthenticated = (message = '登录已失效，请重新登录') => new AppError(401, '407', message);
export const forbidden = (message = '当前操作没有权限') => new AppError(403, '403', message);
export const notFound = (message = '记录不存在或已被删除') => new AppError(404, '404', message);
export const conflict = (message: string) => new AppError(409, '409', message);
export const tooMany = (message: string) => new AppError(429, '429', message);
export const unavailable = (message = '数据库暂不可用，请稍后重试') => new AppError(503, '503', message);

export const STALE_VERSION = '数据已被他人修改，请刷新后重试';
export const REFERENCED = '该记录已被引用，无法删除';

const DRIVER_OUTAGE = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND'];

/** Maps PostgreSQL and driver failures to envelopes; anything else is a 500. */
export function fromDatabaseError(err: any): AppError | undefined {
  const code: string | undefined = err?.code;
  if (!code || typeof code !== 'string') return undefined;
  switch (code) {
    case '23505': {
      const e = conflict(uniqueMessage(err.constraint));
      // `<table>_<column>_key` names the field, so forms can mark it.
      const col =
        typeof err.constraint === 'string' &&
        typeof err.table === 'string' &&
        err.constraint.startsWith(`${err.table}_`) &&
        err.constraint.endsWith('_key')
          ? err.constraint.slice(err.table.length + 1, -4)
          : undefined;
      if (!col) return e;
      const field = fieldOf(col);
      return new AppError(409, '409', e.message, [{ field, message: e.message }]);
    }
    case '23503':
      return conflict(err.message?.includes('update or delete') ? REFERENCED : '引用的记录不存在或已被删除');
    case '23514':
      return conflict(checkMessage(err.constraint));
    case '23502':
      return badRequest('缺少必填字段');
    case '22001':
      return badRequest('字段内容过长');
    case '22003':
      return badRequest('数值超出允许范围');
    case '40001':
    case '40P01':
      return conflict('数据正被他人同时修改，请重试');
    case '55P03':
    case '57014':
      return unavailable('系统繁忙，请稍后重试');
    default:
      // 22: the data itself is wrong (format, encoding, range). 08 connection, 53 resources,
      // 55000, 57P0x (shutdown, crash, start-up, dropped database) and 58 (I/O): the database
      // is not there or not usable, never a 500.
      if (code.startsWith('22')) return badRequest('数据格式不正确');
      if (/^(08|53|57P|58|55000$)/.test(code) || DRIVER_OUTAGE.includes(code)) return unavailable();
      return undefined;
  }
}

/** Constraint names follow `<table>_<column>_key`; the message names what is duplicated. */
function uniqueMessage(constraint: string | undefined): string {
  const known: Record<string, string> = {
    app_user_user_name_key: '用户名已存在',
    role_role_key_key: '角色标识已存在',
    role_role_name_key: '角色名称已存在',
    menu_menu_key_key: '菜单已存在',
    bom_version_no_key: '该产品的 BOM 版本号已存在',
    process_route_version_no_key: '该产品的工艺路线版本号已存在',
    bom_active_key: '该产品已有启用的 BOM 版本，请先停用',
    process_route_active_key: '该产品已有启用的工艺路线，请先停用',
    process_route_step_seq_key: '工序顺序号重复',
    material_unit_conversion_unit_id_key: '换算单位重复',
    sys_enum_enum_key_key: '该枚举类型下的键已存在',
  };
  if (constraint && known[constraint]) return known[constraint];
  if (constraint?.endsWith('_code_key')) return '编码已存在';
  if (constraint?.endsWith('_name_key')) return '名称已存在';
  return '数据重复，已存在相同记录';
}

function checkMessage(constraint: string | undefined): string {
  if (constraint?.includes('quantity')) return '库存数量不足';
  return '数据不满足约束条件';
}

/** Connection-level failures where the pool gives no SQLSTATE. */
export function isConnectionError(err: any): boolean {
  const msg = String(err?.message ?? '');
  return (
    /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|terminating connection|Client was closed|PGlite is closed/i.test(
      msg,
    ) || DRIVER_OUTAGE.includes(err?.code)
  );
}
