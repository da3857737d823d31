import { SEVERITIES, type Severity } from '@ringmes/domain';

/** What GET inspection-task/results/{id} answers of the sampling (server modules/quality/sampling.ts). */
export interface TaskSampling {
  severity: Severity;
  label: string;
  source: { supplierId: number; materialId: number; supplierName: string; materialName: string } | null;
  state: {
    severity: Severity;
    label: string;
    discontinued: boolean;
    switchingScore: number;
    lots: number;
    lotsInSeverity: number;
    rejectedOfLastFive: number;
    consecutiveAccepted: number;
    rejectedInTightened: number;
    reason: string;
    next: string;
    changes: { lot: string | null; from: string; to: string; reason: string }[];
  } | null;
}

/** 「加严 · 表 2-B 加严检验一次抽样方案」. */
export function severityTitle(severity: Severity): string {
  const s = SEVERITIES.find((x) => x.value === severity);
  const titles: Record<Severity, string> = {
    normal: '正常检验一次抽样方案',
    tightened: '加严检验一次抽样方案',
    reduced: '放宽检验一次抽样方案',
  };
  return `${s?.label ?? severity} · ${s?.table ?? ''} ${titles[severity]}`;
}

/** The counters of the switching state that matter for its severity, as label → value. */
export function switchingCounters(state: NonNullable<TaskSampling['state']>): [string, string][] {
  if (state.discontinued)
    return [
      ['已计批数', String(state.lots)],
      ['状态', '暂停检验'],
    ];
  if (state.severity === 'normal')
    return [
      ['转移得分', `${state.switchingScore} / 30`],
      ['近 5 批不接收', `${state.rejectedOfLastFive} / 2`],
      ['本阶段批数', String(state.lotsInSeverity)],
    ];
  if (state.severity === 'tightened')
    return [
      ['连续接收', `${state.consecutiveAccepted} / 5`],
      ['累计不接收', `${state.rejectedInTightened} / 5`],
      ['本阶段批数', String(state.lotsInSeverity)],
    ];
  return [['本阶段批数', String(state.lotsInSeverity)]];
}

/**
 * Why the task's severity and the next lot's may differ: the task was planned when it was made;
 * lots judged since may have switched the supplier × material. Null when they agree.
 */
export function severityDrift(s: TaskSampling): string | null {
  if (!s.state) return null;
  if (s.state.discontinued) return `该供方此物料已暂停检验：下一批须待恢复检验后按加严检验`;
  if (s.state.severity === s.severity) return null;
  return `本单建单时按${s.label}检验；之后判定的批已使该供方此物料转为${s.state.label}，下一批按${s.state.label}检验`;
}

/** The rules in one paragraph, for the task page. */
export const SWITCHING_RULES =
  '转移规则（GB/T 2828.1 第 9 章，按供方 × 物料的采购入库批计）：正常检验连续 5 批（或不到 5 批）中有 2 批初次检验不接收转加严；' +
  '加严检验连续 5 批接收恢复正常；正常检验转移得分达到 30、生产稳定且放宽检验已批准（系统设置 › 抽样检验）转放宽；' +
  '放宽检验有 1 批不接收恢复正常；加严检验累计 5 批不接收暂停检验，供方改进后「恢复检验」从加严重新开始。' +
  '箭头格按标准取箭头所指的第一个方案及其样本量，样本量达到批量时全检。';
