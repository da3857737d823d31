import { describe, expect, it } from 'vitest';
import { severityDrift, severityTitle, switchingCounters, type TaskSampling } from './sampling-text.ts';

const state = (
  over: Partial<NonNullable<TaskSampling['state']>> = {},
): NonNullable<TaskSampling['state']> => ({
  severity: 'normal',
  label: '正常',
  discontinued: false,
  switchingScore: 12,
  lots: 8,
  lotsInSeverity: 6,
  rejectedOfLastFive: 1,
  consecutiveAccepted: 0,
  rejectedInTightened: 0,
  reason: '',
  next: '',
  changes: [],
  ...over,
});

describe('sampling on the task page', () => {
  it('names the severity with its table', () => {
    expect(severityTitle('tightened')).toBe('加严 · 表 2-B 加严检验一次抽样方案');
    expect(severityTitle('reduced')).toBe('放宽 · 表 2-C 放宽检验一次抽样方案');
  });

  it('shows the counters that decide the next switch of each severity', () => {
    expect(switchingCounters(state())).toEqual([
      ['转移得分', '12 / 30'],
      ['近 5 批不接收', '1 / 2'],
      ['本阶段批数', '6'],
    ]);
    expect(
      switchingCounters(state({ severity: 'tightened', consecutiveAccepted: 3, rejectedInTightened: 2 })),
    ).toEqual([
      ['连续接收', '3 / 5'],
      ['累计不接收', '2 / 5'],
      ['本阶段批数', '6'],
    ]);
    expect(switchingCounters(state({ severity: 'tightened', discontinued: true }))[1]).toEqual([
      '状态',
      '暂停检验',
    ]);
  });

  it('says when the next lot is planned otherwise than this task', () => {
    const s: TaskSampling = { severity: 'normal', label: '正常', source: null, state: state() };
    expect(severityDrift(s)).toBeNull();
    expect(severityDrift({ ...s, state: state({ severity: 'tightened', label: '加严' }) })).toContain(
      '下一批按加严检验',
    );
    expect(severityDrift({ ...s, state: state({ discontinued: true }) })).toContain('暂停检验');
    expect(severityDrift({ ...s, state: null })).toBeNull();
  });
});
