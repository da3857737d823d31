import type { Severity } from './sampling.ts';

/**
 * GB/T 2828.1-2012 / ISO 2859-1:1999 clause 9, the switching rules, as a pure function over the
 * history of lots of one product from one source (in RingMES: one supplier × material of 来料检验).
 *
 * - Inspection starts 正常 (9.1).
 * - 正常 → 加严 when 2 lots of 5 or fewer consecutive ones are not accepted on original inspection (9.3.1).
 * - 加严 → 正常 after 5 consecutive lots accepted on original inspection (9.3.2).
 * - 正常 → 放宽 when the switching score reaches 30, production is steady and the responsible
 *   authority approves reduced inspection (9.3.3.1); the last two are one setting here.
 * - The switching score (9.3.3.2) starts at 0 with every period of normal inspection; after each
 *   lot on normal inspection: where Ac ≥ 2, +3 if the lot would have been accepted had the AQL
 *   been one step tighter, else back to 0; where Ac is 0 or 1, +2 if the lot is accepted, else 0.
 *   A lot judged on several items (each with its own AQL plan) adds only when every item adds,
 *   and adds the smallest of their increments.
 * - 放宽 → 正常 when a lot is not accepted (9.3.4); also whenever the approval is withdrawn.
 * - 暂停检验 when the lots not accepted on tightened inspection reach 5 (9.4); inspection resumes
 *   (a `resume` event: the supplier has improved) on 加严 as if 9.3.1 had been invoked. Lots while
 *   discontinued change nothing.
 *
 * "Original inspection": the first verdict of a lot, not that of a resubmitted (reworked) lot.
 */

/** One item of a lot inspected by an AQL plan: for the switching score. */
export interface LotItemOutcome {
  acceptNumber: number;
  /** Nonconforming items (or nonconformities) found in the sample. */
  defects: number;
  /** Ac of the normal plan one AQL step tighter with the same sample size; null: none. */
  tighterAcceptNumber: number | null;
}

export interface LotOutcome {
  kind?: 'lot';
  /** The lot's name in explanations (检验单号). */
  label?: string;
  /** Accepted on original inspection. */
  accepted: boolean;
  /** Its AQL items; without them an accepted lot counts as a plan with Ac 0 or 1 (+2). */
  items?: readonly LotItemOutcome[];
}

/** Inspection resumed after discontinuation (the supplier's corrective action accepted). */
export interface ResumeEvent {
  kind: 'resume';
  label?: string;
}

export type SwitchingEvent = LotOutcome | ResumeEvent;

export interface SwitchingOptions {
  /** 放宽检验已批准: production steady and the responsible authority approves reduced inspection. */
  reducedApproved: boolean;
}

/** A change of severity, and the lot (index into the events, with its label) that caused it. */
export interface SwitchingChange {
  at: number;
  label?: string;
  from: Severity | 'discontinued';
  to: Severity | 'discontinued';
  reason: string;
}

export interface SwitchingState {
  /** The severity for the next lot (加严 while discontinued). */
  severity: Severity;
  /** 暂停检验: 5 lots not accepted on tightened inspection, not yet resumed. */
  discontinued: boolean;
  /** The switching score (normal inspection only; 0 otherwise). */
  switchingScore: number;
  /** Lots judged since the current severity began. */
  lotsInSeverity: number;
  /** 正常: lots not accepted among the last five normal lots (two switch to 加严). */
  rejectedOfLastFive: number;
  /** 加严: consecutive lots accepted (five switch back to 正常). */
  consecutiveAccepted: number;
  /** 加严: lots not accepted since tightened inspection began (five discontinue). */
  rejectedInTightened: number;
  /** Lots counted (resume events excluded). */
  lots: number;
  /** Why the severity is what it is, in Chinese. */
  reason: string;
  /** What would change it next, in Chinese. */
  next: string;
  /** Every change of severity, oldest first. */
  changes: SwitchingChange[];
}

const LABEL: Record<Severity | 'discontinued', string> = {
  normal: '正常',
  tightened: '加严',
  reduced: '放宽',
  discontinued: '暂停检验',
};

/** What one lot on normal inspection does to the switching score: its increment, or null (reset). */
export function switchingScoreIncrement(lot: LotOutcome): number | null {
  if (!lot.accepted) return null;
  const items = lot.items?.length ? lot.items : [{ acceptNumber: 0, defects: 0, tighterAcceptNumber: null }];
  let add = Number.POSITIVE_INFINITY;
  for (const i of items) {
    if (i.acceptNumber >= 2) {
      if (i.tighterAcceptNumber == null || i.defects > i.tighterAcceptNumber) return null;
      add = Math.min(add, 3);
    } else {
      if (i.defects > i.acceptNumber) return null;
      add = Math.min(add, 2);
    }
  }
  return add;
}

/** The switching state after a history of lots (oldest first): the severity for the next lot. */
export function switchingState(events: readonly SwitchingEvent[], opts: SwitchingOptions): SwitchingState {
  let state = 'normal' as Severity | 'discontinued';
  let score = 0;
  let inState = 0;
  let normalWindow: boolean[] = []; // accepted? of the normal lots, last five
  let consecutive = 0;
  let rejectedTight = 0;
  let lots = 0;
  let reason = '初始为正常检验（GB/T 2828.1 9.1）';
  const changes: SwitchingChange[] = [];
  const enter = (at: number, label: string | undefined, to: Severity | 'discontinued', why: string) => {
    changes.push({ at, label, from: state, to, reason: why });
    state = to;
    reason = why;
    inState = 0;
    score = 0;
    normalWindow = [];
    consecutive = 0;
    rejectedTight = 0;
  };
  events.forEach((e, at) => {
    const name = e.label ? `批 ${e.label}` : `第 ${at + 1} 批`;
    if (e.kind === 'resume') {
      if (state === 'discontinued')
        enter(at, e.label, 'tightened', '暂停后恢复检验：按加严检验重新开始（9.4）');
      return;
    }
    lots++;
    if (state === 'discontinued') return;
    inState++;
    if (state === 'normal') {
      const add = switchingScoreIncrement(e);
      score = add == null ? 0 : score + add;
      normalWindow = [...normalWindow, e.accepted].slice(-5);
      const rejected = normalWindow.filter((a) => !a).length;
      if (!e.accepted && rejected >= 2) {
        enter(
          at,
          e.label,
          'tightened',
          `正常检验连续 ${normalWindow.length} 批中有 2 批不接收（${name}），转加严（9.3.1）`,
        );
      } else if (score >= 30 && opts.reducedApproved) {
        enter(at, e.label, 'reduced', `转移得分达到 ${score}（≥ 30），生产稳定且已批准放宽，转放宽（9.3.3）`);
      }
    } else if (state === 'tightened') {
      if (e.accepted) {
        consecutive++;
        if (consecutive >= 5)
          enter(at, e.label, 'normal', `加严检验连续 5 批接收（至${name}），恢复正常（9.3.2）`);
      } else {
        consecutive = 0;
        rejectedTight++;
        if (rejectedTight >= 5)
          enter(
            at,
            e.label,
            'discontinued',
            `加严检验累计 5 批不接收（${name}），暂停检验，待供方改进后恢复（9.4）`,
          );
      }
    } else if (state === 'reduced') {
      if (!e.accepted) enter(at, e.label, 'normal', `放宽检验${name}不接收，恢复正常（9.3.4）`);
    }
  });
  // Reduced inspection stands on the approval: withdrawn, the next lot is normal again (9.3.4).
  if (state === 'reduced' && !opts.reducedApproved)
    enter(events.length, undefined, 'normal', '放宽检验的批准已撤销，恢复正常（9.3.4）');
  const rejectedOfLastFive = state === 'normal' ? normalWindow.filter((a) => !a).length : 0;
  const next =
    state === 'normal'
      ? (rejectedOfLastFive
          ? `近 ${normalWindow.length} 批中已有 ${rejectedOfLastFive} 批不接收，再有 1 批不接收即转加严；`
          : '连续 5 批内有 2 批不接收即转加严；') +
        (opts.reducedApproved
          ? `转移得分 ${score}，达到 30 转放宽`
          : `转移得分 ${score}（放宽检验未批准，得分达到 30 也不转放宽）`)
      : state === 'tightened'
        ? `已连续接收 ${consecutive} 批，连续 5 批接收恢复正常；累计不接收 ${rejectedTight} 批，达到 5 批暂停检验`
        : state === 'reduced'
          ? '任何一批不接收即恢复正常'
          : '供方采取纠正措施并经批准后恢复检验，按加严检验重新开始';
  return {
    severity: state === 'discontinued' ? 'tightened' : state,
    discontinued: state === 'discontinued',
    switchingScore: state === 'normal' ? score : 0,
    lotsInSeverity: inState,
    rejectedOfLastFive,
    consecutiveAccepted: state === 'tightened' ? consecutive : 0,
    rejectedInTightened: state === 'tightened' ? rejectedTight : 0,
    lots,
    reason,
    next,
    changes,
  };
}

export const switchingLabel = (s: Severity | 'discontinued') => LABEL[s];
