import type { Db } from '../../platform/db/db.ts';
import { port } from '../../platform/hooks.ts';

/**
 * 设备故障 warnings when work is dispatched or planned onto equipment: one line per equipment with
 * an open repair. Equipment care sits above production and answers (`equipment/equipment-alerts.ts`).
 */
export const equipmentFaults = port<[db: Db, equipmentIds: unknown[]], Promise<string[]>>('equipmentFaults');
