import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  EQUIPMENT_FAULT_OPTIONS,
  precisionRule,
  precisionStep,
  SHIFT_MINUTES,
  SHIFT_OPTIONS,
  type WorkshopKind,
} from '@ringmes/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  DatePicker,
  Descriptions,
  Form,
  Input,
  InputNumber,
  Modal,
  Progress,
  Select,
  Table,
  Tag,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import type { ApiError } from '../../../platform/api/errors.ts';
import { useRecordPermission } from '../../../platform/auth/permission.tsx';
import { toast } from '../../../platform/feedback.ts';
import type { PageProps } from '../../../platform/page.ts';
import { RefSelect } from '../../../platform/resource/ref-select.tsx';
import { type ResourceRow, resourceKeys } from '../../../platform/resource/resource-api.ts';
import { ResourceListPage } from '../../../platform/resource/resource-list.page.tsx';
import { unitPrecisionRule, useCountingUnit } from '../../../platform/resource/unit-precision.tsx';
import {
  invalidateResource,
  loadOptions,
  REMOTE_OPTIONS_LIMIT,
  type RefOption,
} from '../../../platform/resource/use-options.ts';
import { qty } from '../../warehouse/warehouse.api.ts';
import {
  kindOf,
  taskRoutes,
  workDispatchResource,
  workshopApi,
  workshopTaskResource,
} from './workshop.api.ts';

const field = (name: string) => workDispatchResource.fields.find((f) => f.name === name) as never;

const FAULT = EQUIPMENT_FAULT_OPTIONS.find((o) => o.value === 'fault');

/** An equipment option with a red 故障 tag while it has an open repair (its 运行状况). */
function equipmentOption(o: RefOption) {
  return (
    <span>
      {o.label}
      {o.faultState === 'fault' && (
        <Tag color={FAULT?.color} style={{ marginInlineStart: 6 }} data-testid="dispatch-equipment-fault">
          {FAULT?.label}
        </Tag>
      )}
    </span>
  );
}

/**
 * The machines of the task's workshop only (its kind's, server-checked, when the task names none),
 * searched on the server as any equipment picker; a 故障 tag beside those under repair.
 */
function WorkshopEquipmentSelect({
  workshopId,
  value,
  onChange,
}: {
  workshopId?: number | null;
  value?: number | null;
  onChange?: (v: number | null) => void;
}) {
  const [keyword, setKeyword] = useState('');
  const [typed, setTyped] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setKeyword(typed.trim()), 300);
    return () => clearTimeout(t);
  }, [typed]);
  const q = useQuery({
    queryKey: [...resourceKeys.options('equipment'), 'workshop', workshopId ?? null, keyword],
    queryFn: () =>
      loadOptions('equipment', {
        keyword: keyword || undefined,
        limit: REMOTE_OPTIONS_LIMIT,
        ...(workshopId ? { workshopId } : {}),
      }),
    placeholderData: keepPreviousData,
  });
  const options = q.data ?? [];
  return (
    <Select<number, RefOption>
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      options={options}
      optionRender={(o) => equipmentOption(o.data)}
      labelRender={(l) => {
        const o = options.find((x) => x.value === Number(l.value));
        return o ? equipmentOption(o) : l.label;
      }}
      allowClear
      showSearch={{ filterOption: false, onSearch: setTyped }}
      loading={q.isLoading}
      placeholder="可选（本车间设备）"
      notFoundContent={q.isLoading ? '加载中…' : '本车间无匹配设备'}
      style={{ width: '100%' }}
      data-testid="dispatch-equipment"
    />
  );
}

interface ShiftLoad {
  kind: 'operator' | 'equipment';
  id: number;
  shift: string;
  minutes: string;
}

/**
 * 超负荷 before sending: per operator and machine, day and shift, the minutes already dispatched
 * (`GET workshop-task/load`) plus this dialog's lines (standard minutes × quantity) against the
 * shift's 480 minutes. The server answers the same warnings after dispatching.
 */
function useOverload(task: ResourceRow, lines: LineValues[] | undefined) {
  const perPiece = Number(task.standardMinutes ?? 0);
  const filled = (lines ?? []).filter((l) => l?.operatorId && l.workDate && l.quantity);
  const dates = [...new Set(filled.map((l) => (l.workDate as Dayjs).format('YYYY-MM-DD')))].sort();
  const operatorIds = [...new Set(filled.map((l) => Number(l.operatorId)))].sort();
  const equipmentIds = [
    ...new Set(filled.flatMap((l) => (l.equipmentId ? [Number(l.equipmentId)] : []))),
  ].sort();
  const loads = useQuery({
    queryKey: ['workshop-task', 'load', task.id, dates, operatorIds, equipmentIds],
    queryFn: async () => {
      const out = new Map<string, number>();
      for (const d of dates) {
        const r = await workshopApi.load(task.id, d, operatorIds, equipmentIds);
        for (const x of r.list as ShiftLoad[])
          out.set(`${x.kind}|${x.id}|${d}|${x.shift}`, Number(x.minutes));
      }
      return out;
    },
    enabled: perPiece > 0 && dates.length > 0,
    placeholderData: keepPreviousData,
  });
  if (!perPiece || !loads.data) return [];
  const sums = new Map<string, number>();
  for (const l of filled) {
    const d = (l.workDate as Dayjs).format('YYYY-MM-DD');
    const m = perPiece * Number(l.quantity);
    const keys = [`operator|${l.operatorId}|${d}|${l.shift ?? 'day'}`];
    if (l.equipmentId) keys.push(`equipment|${l.equipmentId}|${d}|${l.shift ?? 'day'}`);
    for (const k of keys) sums.set(k, (sums.get(k) ?? loads.data.get(k) ?? 0) + m);
  }
  const shiftLabel = (v: string) => SHIFT_OPTIONS.find((o) => o.value === v)?.label ?? v;
  return [...sums]
    .filter(([, m]) => m > SHIFT_MINUTES)
    .map(([k, m]) => {
      const [kind, , d, shift] = k.split('|');
      const already = loads.data.get(k) ?? 0;
      return {
        key: k,
        kind,
        text: `${d} ${shiftLabel(shift)} 负荷 ${Math.round(m * 100) / 100} 分钟（已派 ${already}），超过班次 ${SHIFT_MINUTES} 分钟`,
      };
    });
}

/** 车加工任务 / 磨加工任务 / 检测任务 / 装配任务: the workshop's tasks with progress and 派工. */
export function WorkshopTaskListPage({ path }: PageProps) {
  const kind = kindOf(path);
  const may = useRecordPermission(workshopTaskResource);
  const [dispatching, setDispatching] = useState<ResourceRow>();
  return (
    <>
      <ResourceListPage
        path={path}
        def={workshopTaskResource}
        routes={taskRoutes(kind)}
        fixedFilters={{ workshopType: kind.type }}
        hiddenFilters={['workshopType']}
        rowActionsWidth={48}
        rowActions={(row) =>
          may('dispatch', row.workshopType) &&
          ['pending', 'dispatched', 'started', 'paused'].includes(row.status) && (
            <Button type="link" size="small" onClick={() => setDispatching(row)} data-testid="task-dispatch">
              派工
            </Button>
          )
        }
      />
      {dispatching && (
        <DispatchModal kind={kind} task={dispatching} onClose={() => setDispatching(undefined)} />
      )}
    </>
  );
}

interface LineValues {
  teamId?: number | null;
  operatorId?: number;
  equipmentId?: number | null;
  workDate?: Dayjs;
  shift?: string;
  quantity?: number | string;
  remark?: string;
}

/** 派工: split what is left of a task among operators, machines, dates and shifts. */
export function DispatchModal({
  kind,
  task,
  onClose,
}: {
  kind: WorkshopKind;
  task: ResourceRow;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const [form] = Form.useForm<{ lines: LineValues[] }>();
  const [error, setError] = useState<string>();
  // 运行状况 changes with every repair: the picker's cached equipment reloads for each 派工.
  useEffect(() => {
    void client.invalidateQueries({ queryKey: resourceKeys.options('equipment') });
  }, [client]);
  const left = Math.max(Number(task.plannedQuantity) - Number(task.dispatchedQuantity), 0);
  // Pieces of the task's product, in its unit (no dispatch of 10.5 件: unit precision).
  const unit = useCountingUnit(task.productId, undefined);
  const submit = useMutation({
    mutationFn: (lines: LineValues[]) =>
      workshopApi.dispatch(
        task.id,
        lines.map((l) => ({
          teamId: l.teamId ?? null,
          operatorId: Number(l.operatorId),
          equipmentId: l.equipmentId ?? null,
          workDate: (l.workDate ?? dayjs()).format('YYYY-MM-DD'),
          shift: l.shift ?? 'day',
          quantity: String(l.quantity),
          remark: l.remark || undefined,
        })),
      ),
    onSuccess: ({ dispatches, warnings }) => {
      toast.success(`已派工：${dispatches.map((d) => d.docNo).join('、')}`);
      // 设备故障 (an open repair): dispatched all the same, with the warning.
      for (const w of warnings ?? []) toast.warning(w);
      invalidateResource(client, 'workshop-task');
      invalidateResource(client, 'work-dispatch');
      onClose();
    },
    onError: (e: ApiError) => {
      setError(e.message);
      form.setFields(
        (e.errors ?? [])
          .filter((x) => /^lines\.\d+\./.test(x.field))
          .map((x) => {
            const [, i, name] = x.field.split('.');
            return { name: ['lines', Number(i), name] as never, errors: [x.message] };
          }),
      );
    },
  });
  const lines = Form.useWatch('lines', form);
  const overload = useOverload(task, lines);
  const percent = Number(task.plannedQuantity)
    ? (Number(task.dispatchedQuantity) / Number(task.plannedQuantity)) * 100
    : 0;
  return (
    <Modal
      open
      width={1100}
      title={`${kind.label}派工 · ${task.taskNo}`}
      okText="确定派工"
      confirmLoading={submit.isPending}
      onCancel={onClose}
      onOk={() =>
        form
          .validateFields()
          .then((v) => {
            setError(undefined);
            submit.mutate(v.lines);
          })
          .catch(() => undefined)
      }
      destroyOnHidden
    >
      <Descriptions size="small" column={4} style={{ marginBottom: 12 }}>
        <Descriptions.Item label="生产订单">{task.productionOrderName}</Descriptions.Item>
        <Descriptions.Item label="产品">{task.productName}</Descriptions.Item>
        <Descriptions.Item label="工序">{task.processName}</Descriptions.Item>
        <Descriptions.Item label="计划">
          {task.plannedStartDate} ~ {task.plannedFinishDate}
        </Descriptions.Item>
        <Descriptions.Item label="计划数量">{qty(task.plannedQuantity)}</Descriptions.Item>
        <Descriptions.Item label="已派工">{qty(task.dispatchedQuantity)}</Descriptions.Item>
        <Descriptions.Item label="待派数量">
          <b>{qty(left)}</b>
        </Descriptions.Item>
        <Descriptions.Item label="派工进度">
          <Progress percent={Math.round(percent)} size="small" style={{ width: 140 }} />
        </Descriptions.Item>
      </Descriptions>
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      {overload.length > 0 && (
        <Alert
          type="warning"
          showIcon
          data-testid="dispatch-overload"
          style={{ marginBottom: 12 }}
          title="超负荷：可以派工，请确认能否按时完成"
          description={overload.map((o) => (
            <div key={o.key}>
              {o.kind === 'operator' ? '操作工' : '设备'} {o.text}
            </div>
          ))}
        />
      )}
      <Form
        form={form}
        name="dispatch"
        initialValues={{ lines: [{ workDate: dayjs(), shift: 'day', quantity: left || undefined }] }}
      >
        <Form.List name="lines">
          {(rows, { add, remove }) => (
            <>
              <Table
                size="small"
                rowKey="key"
                pagination={false}
                dataSource={rows}
                columns={[
                  {
                    title: '班组',
                    width: 150,
                    render: (_, r) => (
                      <Form.Item name={[r.name, 'teamId']} noStyle>
                        <RefSelect field={field('teamId')} placeholder="可选" style={{ width: '100%' }} />
                      </Form.Item>
                    ),
                  },
                  {
                    title: '操作工',
                    width: 170,
                    render: (_, r) => (
                      <Form.Item
                        name={[r.name, 'operatorId']}
                        rules={[{ required: true, message: '请选择操作工' }]}
                        style={{ margin: 0 }}
                      >
                        <RefSelect
                          field={field('operatorId')}
                          placeholder="选择操作工"
                          style={{ width: '100%' }}
                        />
                      </Form.Item>
                    ),
                  },
                  {
                    title: '设备',
                    width: 170,
                    render: (_, r) => (
                      <Form.Item name={[r.name, 'equipmentId']} noStyle>
                        <WorkshopEquipmentSelect workshopId={task.workshopId} />
                      </Form.Item>
                    ),
                  },
                  {
                    title: '生产日期',
                    width: 140,
                    render: (_, r) => (
                      <Form.Item
                        name={[r.name, 'workDate']}
                        rules={[{ required: true, message: '请选择日期' }]}
                        style={{ margin: 0 }}
                      >
                        <DatePicker allowClear={false} style={{ width: '100%' }} />
                      </Form.Item>
                    ),
                  },
                  {
                    title: '班次',
                    width: 90,
                    render: (_, r) => (
                      <Form.Item name={[r.name, 'shift']} style={{ margin: 0 }}>
                        <Select options={SHIFT_OPTIONS} />
                      </Form.Item>
                    ),
                  },
                  {
                    title: '派工数量',
                    width: 120,
                    render: (_, r) => (
                      <Form.Item
                        name={[r.name, 'quantity']}
                        rules={[
                          { required: true, message: '请填写数量' },
                          {
                            validator: (_r, v) =>
                              v == null || Number(v) > 0
                                ? Promise.resolve()
                                : Promise.reject(new Error('数量须大于 0')),
                          },
                          unitPrecisionRule('派工数量', client, () => ({ materialId: task.productId })),
                        ]}
                        style={{ margin: 0 }}
                      >
                        <InputNumber
                          min={0}
                          precision={unit ? undefined : 4}
                          step={unit ? precisionStep(unit.precision) : undefined}
                          placeholder={unit ? precisionRule(unit.precision) : undefined}
                          style={{ width: '100%' }}
                          stringMode
                        />
                      </Form.Item>
                    ),
                  },
                  {
                    title: '备注',
                    render: (_, r) => (
                      <Form.Item name={[r.name, 'remark']} noStyle>
                        <Input maxLength={500} />
                      </Form.Item>
                    ),
                  },
                  {
                    title: '',
                    width: 40,
                    render: (_, r) =>
                      rows.length > 1 && (
                        <Button
                          type="text"
                          danger
                          icon={<DeleteOutlined />}
                          aria-label="删除此行"
                          onClick={() => remove(r.name)}
                        />
                      ),
                  },
                ]}
              />
              <Button
                icon={<PlusOutlined />}
                type="dashed"
                block
                style={{ marginTop: 8 }}
                onClick={() => add({ workDate: dayjs(), shift: 'day' })}
              >
                添加一行（分给多人、多台设备或多个班次）
              </Button>
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
