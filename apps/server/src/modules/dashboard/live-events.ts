import type { Db } from '../../platform/db/db.ts';
import { liveNotify } from '../../platform/live/notify.ts';

/**
 * The calls other modules make, inside their transactions, when something the live dashboards
 * show changes. Each is one `pg_notify`, delivered on commit.
 */

/** A repair request opened, moved or closed: equipment status on every dashboard. */
export const repairChanged = (db: Db) => liveNotify(db, { topic: 'repair' });
