import { SEVERITIES } from '@ringmes/domain';
import { Alert, Button, Descriptions, Input, Modal, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { http } from '../../platform/api/client.ts';
import { toast } from '../../platform/feedback.ts';
import {
  SWITCHING_RULES,
  severityDrift,
  severityTitle,
  switchingCounters,
  type TaskSampling,
} from './sampling-text.ts';

/**
 * 抽样方案 of a task sampled by GB/T 2828.1: the severity it was planned with (严格度, its table)
 * and, for 来料检验 of a 采购入库, the switching state of the supplier × material — why it stands
 * where it is, what switches it next, the counters — with 恢复检验 when it was discontinued.
 */
export function SamplingView({
  sampling,
  taskId,
  canResume,
  onResumed,
}: {
  sampling: TaskSampling | null | undefined;
  taskId: number;
  canResume: boolean;
  onResumed: () => void;
}) {
  const [resuming, setResuming] = useState(false);
  const [reason, setReason] = useState('');
  if (!sampling) return null;
  const color = SEVERITIES.find((s) => s.value === sampling.severity)?.color;
  const state = sampling.state;
  const drift = severityDrift(sampling);
  const resume = async () => {
    await http.post(`/api/v1/inspection-task/sampling-resume/${taskId}`, { reason });
    toast.success('已恢复检验：该供方此物料按加严检验重新开始');
    setResuming(false);
    setReason('');
    onResumed();
  };
  return (
    <div className="qi-sampling" data-testid="sampling-state">
      <Descriptions size="small" column={4} className="qi-head">
        <Descriptions.Item label="严格度">
          <Tooltip title={SWITCHING_RULES}>
            <Tag color={color} data-testid="sampling-severity">
              {sampling.label}
            </Tag>
          </Tooltip>
          <span className="qi-sub">{severityTitle(sampling.severity).split(' · ')[1]}</span>
        </Descriptions.Item>
        {sampling.source && (
          <Descriptions.Item label="转移规则按">
            {`${sampling.source.supplierName} × ${sampling.source.materialName}`}
          </Descriptions.Item>
        )}
        {state && (
          <Descriptions.Item label="当前状态">
            <Tag
              color={
                state.discontinued ? 'volcano' : SEVERITIES.find((s) => s.value === state.severity)?.color
              }
            >
              {state.label}
            </Tag>
          </Descriptions.Item>
        )}
        {state &&
          switchingCounters(state).map(([label, value]) => (
            <Descriptions.Item key={label} label={label}>
              {value}
            </Descriptions.Item>
          ))}
      </Descriptions>
      {state && (
        <Typography.Paragraph type="secondary" className="qi-note" data-testid="sampling-reason">
          {state.reason}。{state.next}。
        </Typography.Paragraph>
      )}
      {drift && <Alert type="info" showIcon message={drift} className="qi-note" />}
      {state?.discontinued && (
        <Alert
          type="error"
          showIcon
          className="qi-note"
          message="加严检验累计 5 批不接收，已暂停检验（GB/T 2828.1 9.4）"
          description="供方采取纠正措施并经确认后恢复检验，从加严检验重新开始。"
          action={
            canResume ? (
              <Button size="small" danger onClick={() => setResuming(true)}>
                恢复检验
              </Button>
            ) : undefined
          }
        />
      )}
      {!sampling.source && (
        <Typography.Paragraph type="secondary" className="qi-note">
          本单不是采购入库的来料检验，按正常检验（表 2-A）；转移规则只用于按供方 × 物料计批的来料检验。
        </Typography.Paragraph>
      )}
      <Modal
        open={resuming}
        title="恢复检验"
        okText="恢复检验"
        okButtonProps={{ disabled: reason.trim().length < 2 }}
        onOk={resume}
        onCancel={() => setResuming(false)}
        destroyOnHidden
      >
        <Input.TextArea
          rows={3}
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          placeholder="恢复依据，如供方 8D 报告编号、纠正措施验证结论"
          aria-label="恢复依据"
        />
      </Modal>
    </div>
  );
}
