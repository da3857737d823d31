import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { hook } from '../../platform/hooks.ts';

/**
 * What the shop floor's work means to inspection. Quality sits above production, so production
 * calls no quality code: it announces these events inside its transactions and quality
 * (`quality/sources.ts`) listens — 首检 gating, 报工检验 tasks, 越过检验入账, 来料检验 of the next
 * workshop. The way back down (a passed inspection posting the report) is quality calling
 * production (`completeInspection`), which the import rules allow.
 */
export const shopFloorEvents = {
  /** A new report on a dispatch is about to be saved (may refuse: 首检 not passed yet). */
  reportAdding: hook<[db: Db, dispatchId: number]>(),
  /** An approved report waits 待检验 on a step flagged for inspection. */
  reportAwaitingInspection: hook<[db: Db, user: AuthUser, report: Record<string, any>]>(),
  /** 越过检验入账: a report waiting for inspection is posted without it (may refuse). */
  inspectionOverridden:
    hook<
      [db: Db, user: AuthUser, report: Record<string, any>, reason: string, requestId: string | undefined]
    >(),
  /** A report taken back (反审核). */
  reportWithdrawn: hook<[db: Db, reportId: number]>(),
  /** Good pieces of a card reached (or left again) the step after `fromSeq` in another workshop. */
  cardArrived: hook<[db: Db, user: AuthUser, cardId: number, fromSeq: number]>(),
};
