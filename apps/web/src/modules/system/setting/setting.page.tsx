import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import {
  DOC_NO_PATTERNS,
  DOC_PREFIX_MESSAGE,
  DOC_PREFIX_REGEX,
  type DocNoPattern,
  docPrefixClash,
  formatDocNo,
  OVERHEAD_BASIS_LABEL,
} from '@ringmes/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, Form, Input, InputNumber, Select, Space, Switch, Table, Tabs, Upload } from 'antd';
import dayjs from 'dayjs';
import { type ReactNode, useEffect, useState } from 'react';
import { http } from '../../../platform/api/client.ts';
import { isApiError } from '../../../platform/api/errors.ts';
import { usePermission } from '../../../platform/auth/permission.tsx';
import { BRAND_KEY } from '../../../platform/brand.ts';
import { toast } from '../../../platform/feedback.ts';
import { loadMenuFilter, type UiSettings } from '../../../platform/menu/built-pages.ts';
import { useOptions } from '../../../platform/resource/use-options.ts';
import { sessionStore } from '../../../platform/session.ts';
import { PageCard } from '../../../platform/ui/page-card.tsx';
import { applyFieldErrors } from '../../../platform/ui/search-form.tsx';
import { PrintTemplatesSection } from '../print-template/print-templates.tsx';
import { NotifySettingsSection } from './notify-settings.tsx';

const LOGO_MAX_KB = 200;
const PERCENT_RULES = [
  { required: true, message: '请输入比例' },
  {
    validator: (_: unknown, v: unknown) =>
      v === null || v === undefined || /^\d{1,3}(\.\d{1,2})?$/.test(String(v))
        ? Promise.resolve()
        : Promise.reject(new Error('最多两位小数')),
  },
];

/**
 * One settings group (GET/PUT /api/v1/sysSetting/<group>) as a form: rules check inline, the
 * server's field errors land on their fields, 保存 only for `system:setting:edit`.
 */
function SettingsForm<V extends object>({
  group,
  title,
  saved,
  children,
  afterSave,
  labelWidth = 160,
}: {
  group: string;
  title: string;
  saved: string;
  children: ReactNode;
  afterSave?: () => void;
  labelWidth?: number;
}) {
  const can = usePermission();
  const editable = can('system:setting:edit');
  const client = useQueryClient();
  const [form] = Form.useForm<V>();
  const [saving, setSaving] = useState(false);
  const key = ['sysSetting', group];
  const data = useQuery({ queryKey: key, queryFn: () => http.get<V>(`/api/v1/sysSetting/${group}`) });
  useEffect(() => {
    if (data.data) form.setFieldsValue(data.data as any);
  }, [data.data, form]);

  const save = async (values: V) => {
    setSaving(true);
    try {
      await http.put(`/api/v1/sysSetting/${group}`, values);
      toast.success(saved);
      await client.invalidateQueries({ queryKey: key });
      afterSave?.();
    } catch (e) {
      if (isApiError(e)) applyFieldErrors(form, e.errors);
    } finally {
      setSaving(false);
    }
  };

  return (
    <PageCard title={title}>
      <Form<V>
        form={form}
        name={`${group}Settings`}
        layout="horizontal"
        labelCol={{ flex: `${labelWidth}px` }}
        disabled={!editable || data.isLoading}
        onFinish={save}
        style={{ maxWidth: 720 }}
        data-testid={`settings-${group}`}
      >
        {children}
        {editable && (
          <Form.Item label=" " colon={false}>
            <Button type="primary" htmlType="submit" loading={saving}>
              保存
            </Button>
          </Form.Item>
        )}
      </Form>
    </PageCard>
  );
}

/** The company logo as a data URL: PNG, JPEG, WebP or GIF up to 200 KB. */
function LogoInput({ value, onChange }: { value?: string | null; onChange?: (v: string | null) => void }) {
  return (
    <Space align="center">
      {value ? (
        <img src={value} alt="公司标志" style={{ height: 48, maxWidth: 160, objectFit: 'contain' }} />
      ) : (
        <span className="rm-muted">未设置（使用系统标志）</span>
      )}
      <Upload
        accept="image/png,image/jpeg,image/webp,image/gif"
        showUploadList={false}
        beforeUpload={(file) => {
          if (!/^image\/(png|jpeg|webp|gif)$/.test(file.type)) {
            toast.error('公司标志必须是 PNG、JPEG、WebP 或 GIF 图片');
          } else if (file.size > LOGO_MAX_KB * 1024) {
            toast.error(`公司标志图片不能超过 ${LOGO_MAX_KB} KB`);
          } else {
            const reader = new FileReader();
            reader.onload = () => onChange?.(String(reader.result));
            reader.readAsDataURL(file);
          }
          return false;
        }}
      >
        <Button icon={<UploadOutlined />}>选择图片</Button>
      </Upload>
      {value && (
        <Button icon={<DeleteOutlined />} onClick={() => onChange?.(null)}>
          清除
        </Button>
      )}
    </Space>
  );
}

interface DocNumbering {
  docType: string;
  defaultPrefix: string;
  prefix: string;
  pattern: DocNoPattern;
  example: string;
}

const PATTERN_OPTIONS = DOC_NO_PATTERNS.map((p) => ({ value: p.value, label: p.label }));

/**
 * 单据编号: per document type, the prefix and the pattern (how often the serial restarts), with
 * the number the next document would get today. The rules mirror the server: a valid prefix, and
 * no two types whose prefixes are equal or differ only by trailing digits.
 */
function DocPrefixes() {
  const can = usePermission();
  const editable = can('system:setting:edit');
  const client = useQueryClient();
  const [form] = Form.useForm<{ rules: DocNumbering[] }>();
  const [saving, setSaving] = useState(false);
  const key = ['sysSetting', 'docPrefixes'];
  const list = useQuery({
    queryKey: key,
    queryFn: () => http.get<DocNumbering[]>('/api/v1/sysSetting/docPrefixes'),
  });
  useEffect(() => {
    if (list.data) form.setFieldsValue({ rules: list.data });
  }, [list.data, form]);
  // The watched rows hold only the fields with inputs (prefix, pattern); the type's name and
  // default prefix come from the loaded list, row for row.
  const rules = Form.useWatch('rules', form);
  const typeOf = (i: number) => list.data?.[i];
  const today = dayjs().format('YYYY-MM-DD');

  const save = async () => {
    setSaving(true);
    try {
      // The whole rows: the submitted values hold only the fields that have inputs.
      const rows: DocNumbering[] = form.getFieldValue('rules') ?? [];
      await http.put(
        '/api/v1/sysSetting/docPrefixes',
        rows.map((r) => ({ defaultPrefix: r.defaultPrefix, prefix: r.prefix, pattern: r.pattern })),
      );
      toast.success('保存成功');
      await client.invalidateQueries({ queryKey: key });
    } catch (e) {
      // The server names a row's field as `3.prefix`.
      if (isApiError(e))
        form.setFields(
          e.errors
            .filter((x) => /^\d+\.(prefix|pattern)$/.test(x.field))
            .map((x) => {
              const [i, field] = x.field.split('.') as [string, 'prefix' | 'pattern'];
              return {
                name: ['rules', Number(i), field] as ['rules', number, typeof field],
                errors: [x.message],
              };
            }),
        );
    } finally {
      setSaving(false);
    }
  };

  const prefixRules = (index: number) => [
    { required: true, whitespace: true, message: '请输入前缀' },
    { pattern: DOC_PREFIX_REGEX, message: DOC_PREFIX_MESSAGE },
    {
      validator: (_: unknown, v: string | undefined) => {
        const all: DocNumbering[] = form.getFieldValue('rules') ?? [];
        for (const [j, other] of all.entries()) {
          const clash = j !== index && v && other?.prefix ? docPrefixClash(v, other) : null;
          if (clash) return Promise.reject(new Error(clash));
        }
        return Promise.resolve();
      },
    },
  ];

  return (
    <PageCard title="单据编号规则">
      <p className="rm-muted">
        编号由前缀、业务日期和流水号组成；流水号按编号格式每日、每月或每年从 1
        重新开始。修改后从下一张单据起生效，已有单据的编号不变。
      </p>
      <Form
        form={form}
        name="docPrefixesSettings"
        disabled={!editable || list.isLoading}
        onFinish={save}
        style={{ maxWidth: 860 }}
        data-testid="settings-docPrefixes"
      >
        <Form.List name="rules">
          {(fields) => (
            <Table
              rowKey="key"
              size="small"
              pagination={false}
              loading={list.isLoading}
              dataSource={fields}
              columns={[
                {
                  title: '单据类型',
                  key: 'docType',
                  width: 120,
                  render: (_: unknown, f: { name: number }) => typeOf(f.name)?.docType,
                },
                {
                  title: '前缀',
                  key: 'prefix',
                  width: 160,
                  render: (_: unknown, f: { name: number }) => (
                    <Form.Item
                      name={[f.name, 'prefix']}
                      rules={prefixRules(f.name)}
                      normalize={(v?: string) => v?.toUpperCase()}
                      dependencies={fields
                        .filter((o) => o.name !== f.name)
                        .map((o) => ['rules', o.name, 'prefix'])}
                      style={{ margin: 0 }}
                    >
                      <Input
                        maxLength={6}
                        placeholder={typeOf(f.name)?.defaultPrefix}
                        aria-label={`${typeOf(f.name)?.docType ?? ''}前缀`}
                      />
                    </Form.Item>
                  ),
                },
                {
                  title: '编号格式',
                  key: 'pattern',
                  width: 240,
                  render: (_: unknown, f: { name: number }) => (
                    <Form.Item
                      name={[f.name, 'pattern']}
                      rules={[{ required: true, message: '请选择编号格式' }]}
                      style={{ margin: 0 }}
                    >
                      <Select
                        options={PATTERN_OPTIONS}
                        aria-label={`${typeOf(f.name)?.docType ?? ''}编号格式`}
                      />
                    </Form.Item>
                  ),
                },
                {
                  title: '示例',
                  key: 'example',
                  render: (_: unknown, f: { name: number }) => {
                    const r = rules?.[f.name];
                    if (!r) return null;
                    return DOC_PREFIX_REGEX.test(r.prefix ?? '') ? (
                      <span className="rm-code">{formatDocNo(r.prefix, r.pattern, today, 1)}</span>
                    ) : (
                      <span className="rm-muted">—</span>
                    );
                  },
                },
              ]}
            />
          )}
        </Form.List>
        {editable && (
          <Space style={{ marginTop: 16 }}>
            <Button type="primary" htmlType="submit" loading={saving}>
              保存
            </Button>
            <Button
              htmlType="button"
              onClick={() =>
                form.setFieldsValue({
                  rules: (form.getFieldValue('rules') ?? []).map((r: DocNumbering) => ({
                    ...r,
                    prefix: r.defaultPrefix,
                    pattern: 'daily',
                  })),
                })
              }
            >
              恢复默认
            </Button>
          </Space>
        )}
      </Form>
    </PageCard>
  );
}

function UiSection() {
  const can = usePermission();
  const editable = can('system:setting:edit');
  const client = useQueryClient();
  const ui = useQuery({
    queryKey: ['sysSetting', 'ui'],
    queryFn: () => http.get<UiSettings>('/api/v1/sysSetting/ui'),
  });
  const toggleUnfinished = async (showUnfinishedPages: boolean) => {
    await http.put('/api/v1/sysSetting/ui', { showUnfinishedPages });
    await client.invalidateQueries({ queryKey: ['sysSetting', 'ui'] });
    // Redraw the menus with the new filter.
    await loadMenuFilter();
    const user = sessionStore.get().user;
    if (user) sessionStore.set({ user: { ...user } });
    toast.success(showUnfinishedPages ? '菜单已显示建设中的页面' : '菜单已隐藏建设中的页面');
  };
  return (
    <PageCard title="界面">
      <Space>
        <Switch
          checked={Boolean(ui.data?.showUnfinishedPages)}
          loading={ui.isLoading}
          disabled={!editable}
          onChange={toggleUnfinished}
          aria-label="菜单显示建设中的页面"
        />
        <span>菜单显示建设中的页面</span>
        <span className="rm-muted">（默认隐藏；隐藏时仍可通过地址访问）</span>
      </Space>
    </PageCard>
  );
}

const BASIS_OPTIONS = (Object.keys(OVERHEAD_BASIS_LABEL) as (keyof typeof OVERHEAD_BASIS_LABEL)[]).map(
  (v) => ({
    value: v,
    label: OVERHEAD_BASIS_LABEL[v],
  }),
);

/** A non-negative amount with at most `places` decimals, as the server checks it (system/setting.routes.ts). */
const amountRules = (label: string, places: number, required = true) => [
  ...(required ? [{ required: true, message: `请输入${label}` }] : []),
  {
    validator: (_: unknown, v: unknown) =>
      v === null ||
      v === undefined ||
      v === '' ||
      new RegExp(`^\\d{1,9}(\\.\\d{1,${places}})?$`).test(String(v))
        ? Promise.resolve()
        : Promise.reject(new Error(`${label}必须是不小于 0、最多 ${places} 位小数的数`)),
  },
];

const WEEKDAYS = ['周一', '周二', '周三', '周四', '周五', '周六', '周日'].map((label, i) => ({
  label,
  value: i + 1,
}));
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const dateList = (label: string) => ({
  validator: (_: unknown, v?: string[]) => {
    const bad = (v ?? []).find((d) => !DATE.test(d) || dayjs(d).format('YYYY-MM-DD') !== d);
    return bad
      ? Promise.reject(new Error(`${label}「${bad}」不是 YYYY-MM-DD 格式的日期`))
      : Promise.resolve();
  },
});

/**
 * 生产日历 (issue 37 §1): the factory's working days — the weekdays worked, holidays and extra
 * working days (调休). MRP counts lead times in them; without holidays and with all seven days
 * ticked, every day works.
 */
function PlanningFields() {
  const days = (name: string, label: string, extra: string) => (
    <Form.Item label={label} name={name} extra={extra} rules={[dateList(label)]}>
      <Select
        mode="tags"
        tokenSeparators={[',', '，', ' ', '\n']}
        open={false}
        placeholder="输入日期，如 2026-10-01，回车确认"
        aria-label={label}
      />
    </Form.Item>
  );
  return (
    <>
      <Form.Item
        label="工作日"
        name="weekdays"
        extra="每周上班的日子；MRP 的提前期按工作日倒排"
        rules={[{ required: true, type: 'array', min: 1, message: '至少选择一个工作日' }]}
      >
        <Checkbox.Group options={WEEKDAYS} aria-label="工作日" />
      </Form.Item>
      {days('holidays', '节假日', '不上班的日子（法定节假日、厂休）')}
      {days('workdays', '调休工作日', '原本休息、调休上班的日子（如国庆前的周六）')}
    </>
  );
}

/**
 * 成本核算 (issue 37 §4): the overhead rate of each workshop — per standard minute of the good
 * pieces reported, or per reported hour — and the scrap price per kg; the production order's
 * 成本 tab and the 生产入库 valuation use them. One row per workshop, checked inline.
 */
function CostingFields() {
  const workshops = useOptions('workshop');
  return (
    <>
      <Form.Item
        label="制造费用分摊率"
        extra="每个车间一行：按标准工时（良品数 × 工序标准工时）或按报工实际工时分摊"
      >
        <Form.List name="overheadRates">
          {(fields, { add, remove }) => (
            <Space direction="vertical" style={{ width: '100%' }}>
              {fields.map((f) => (
                <Space key={f.key} align="start" wrap>
                  <Form.Item
                    name={[f.name, 'workshopId']}
                    style={{ margin: 0 }}
                    rules={[
                      { required: true, message: '请选择车间' },
                      ({ getFieldValue }) => ({
                        validator: (_, v) => {
                          const rows: { workshopId?: number }[] = getFieldValue('overheadRates') ?? [];
                          return v != null && rows.filter((r) => r?.workshopId === v).length > 1
                            ? Promise.reject(new Error('每个车间只能设置一个分摊率'))
                            : Promise.resolve();
                        },
                      }),
                    ]}
                  >
                    <Select
                      style={{ width: 160 }}
                      placeholder="车间"
                      options={workshops.options}
                      loading={workshops.loading}
                      showSearch
                      optionFilterProp="label"
                      aria-label={`第 ${f.name + 1} 行车间`}
                    />
                  </Form.Item>
                  <Form.Item
                    name={[f.name, 'basis']}
                    style={{ margin: 0 }}
                    rules={[{ required: true, message: '请选择分摊方式' }]}
                  >
                    <Select
                      style={{ width: 180 }}
                      options={BASIS_OPTIONS}
                      aria-label={`第 ${f.name + 1} 行分摊方式`}
                    />
                  </Form.Item>
                  <Form.Item
                    noStyle
                    shouldUpdate={(a, b) =>
                      a.overheadRates?.[f.name]?.basis !== b.overheadRates?.[f.name]?.basis
                    }
                  >
                    {({ getFieldValue }) => (
                      <Form.Item
                        name={[f.name, 'rate']}
                        style={{ margin: 0 }}
                        rules={amountRules('制造费用分摊率', 6)}
                      >
                        <Input
                          style={{ width: 180 }}
                          placeholder="分摊率"
                          addonAfter={
                            getFieldValue(['overheadRates', f.name, 'basis']) === 'hour'
                              ? '元/小时'
                              : '元/分钟'
                          }
                          aria-label={`第 ${f.name + 1} 行分摊率`}
                        />
                      </Form.Item>
                    )}
                  </Form.Item>
                  <Button
                    icon={<DeleteOutlined />}
                    onClick={() => remove(f.name)}
                    aria-label={`删除第 ${f.name + 1} 行`}
                  />
                </Space>
              ))}
              <Button onClick={() => add({ basis: 'standard-minute' })}>添加车间</Button>
            </Space>
          )}
        </Form.List>
      </Form.Item>
      <Form.Item
        label="废料回收价（元/kg）"
        name="scrapPricePerKg"
        extra="工废、料废按产品单重折算公斤数，从生产订单成本中扣减；不填则不扣减"
        rules={amountRules('废料回收价', 4, false)}
        normalize={(v?: string) => (v === '' ? null : v)}
      >
        <Input style={{ width: 200 }} aria-label="废料回收价" />
      </Form.Item>
    </>
  );
}

const pct = (name: string, label: string, help: string) => (
  <Form.Item label={label} name={name} rules={PERCENT_RULES} extra={help}>
    <InputNumber<string>
      stringMode
      min="0"
      max="100"
      precision={2}
      addonAfter="%"
      style={{ width: 200 }}
      aria-label={label}
    />
  </Form.Item>
);

/** 系统设置: one tab per group of settings. */
export function SystemSettingPage() {
  const client = useQueryClient();
  const canEdit = usePermission()('system:setting:edit');
  const items = [
    {
      key: 'company',
      label: '公司信息',
      children: (
        <SettingsForm
          group="company"
          title="公司信息"
          saved="公司信息已保存"
          afterSave={() => client.invalidateQueries({ queryKey: BRAND_KEY })}
        >
          <Form.Item
            label="公司名称"
            name="companyName"
            extra="显示在登录页和打印单据的抬头"
            rules={[
              { required: true, whitespace: true, message: '请输入公司名称' },
              { max: 60, message: '公司名称不能超过 60 个字' },
            ]}
          >
            <Input maxLength={60} placeholder="如：洛阳精密轴承有限公司" />
          </Form.Item>
          <Form.Item label="公司标志" name="logo" extra={`PNG、JPEG、WebP 或 GIF，不超过 ${LOGO_MAX_KB} KB`}>
            <LogoInput />
          </Form.Item>
        </SettingsForm>
      ),
    },
    { key: 'numbering', label: '单据编号', children: <DocPrefixes /> },
    {
      key: 'security',
      label: '密码与会话',
      children: (
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <SettingsForm group="passwordPolicy" title="密码策略" saved="密码策略已保存">
            <Form.Item
              label="密码最小长度"
              name="minLength"
              rules={[{ required: true, message: '请输入密码最小长度' }]}
              extra="不少于 6 位；常见密码和与用户名相同的密码始终被拒绝"
            >
              <InputNumber<number> min={6} max={128} precision={0} aria-label="密码最小长度" />
            </Form.Item>
          </SettingsForm>
          <SettingsForm group="session" title="会话超时" saved="会话超时已保存">
            <Form.Item
              label="空闲超时（分钟）"
              name="idleMinutes"
              dependencies={['absoluteHours']}
              extra="无操作超过该时长后需重新登录，5–10080 分钟"
              rules={[
                { required: true, message: '请输入空闲超时' },
                ({ getFieldValue }) => ({
                  validator: (_, v) =>
                    v && getFieldValue('absoluteHours') && v > getFieldValue('absoluteHours') * 60
                      ? Promise.reject(new Error('空闲超时不能长于会话最长时长'))
                      : Promise.resolve(),
                }),
              ]}
            >
              <InputNumber<number> min={5} max={10080} precision={0} aria-label="空闲超时" />
            </Form.Item>
            <Form.Item
              label="最长时长（小时）"
              name="absoluteHours"
              extra="登录后超过该时长必须重新登录，1–720 小时；缩短后对已登录的会话立即生效"
              rules={[{ required: true, message: '请输入会话最长时长' }]}
            >
              <InputNumber<number> min={1} max={720} precision={0} aria-label="会话最长时长" />
            </Form.Item>
          </SettingsForm>
        </Space>
      ),
    },
    {
      key: 'allowances',
      label: '超量允差',
      children: (
        <SettingsForm group="allowances" title="超量允差" saved="超量允差已保存">
          {pct('overShipPercent', '超发比例', '销售发货可超过订单数量的比例')}
          {pct('overIssuePercent', '超领比例', '生产领料可超过需求数量的比例')}
          {pct('overDispatchPercent', '超派比例', '派工可超过生产订单数量的比例')}
          {pct('overReceivePercent', '超收比例', '采购和委外到货可超过订单数量的比例')}
        </SettingsForm>
      ),
    },
    {
      key: 'inspection',
      label: '出货检验',
      children: (
        <SettingsForm group="inspection" title="出货检验" saved="出货检验设置已保存">
          <Form.Item
            label="发货前必须检验合格"
            name="shipmentInspectionRequired"
            valuePropName="checked"
            extra="开启后，销售出库前须有合格的出货检验"
          >
            <Switch aria-label="发货前必须检验合格" />
          </Form.Item>
        </SettingsForm>
      ),
    },
    {
      key: 'sampling',
      label: '抽样检验',
      children: (
        <SettingsForm group="sampling" title="抽样检验" saved="抽样检验设置已保存" labelWidth={220}>
          <Form.Item
            label="放宽检验已批准"
            name="reducedApproved"
            valuePropName="checked"
            extra="GB/T 2828.1 转移规则：开启表示生产稳定且负责部门批准放宽检验，来料检验的正常检验转移得分达到 30 时转放宽（表 2-C）；关闭后放宽检验的供方物料下一批恢复正常"
          >
            <Switch aria-label="放宽检验已批准" />
          </Form.Item>
        </SettingsForm>
      ),
    },
    {
      key: 'segregation',
      label: '职责分离',
      children: (
        <SettingsForm group="segregation" title="职责分离" saved="职责分离设置已保存" labelWidth={220}>
          <Form.Item
            label="报工审核人不得为报工人"
            name="approverNotReporter"
            valuePropName="checked"
            extra="开启后，报工单须由报工人以外的人审核（计件工资由此计算）"
          >
            <Switch aria-label="报工审核人不得为报工人" />
          </Form.Item>
          <Form.Item
            label="收付款确认人不得为制单人"
            name="checkerNotMaker"
            valuePropName="checked"
            extra="开启后，收款单、付款单和退款单须由制单人以外的人确认；从应收、应付列表收付款时，单据保存为草稿待他人确认"
          >
            <Switch aria-label="收付款确认人不得为制单人" />
          </Form.Item>
        </SettingsForm>
      ),
    },
    {
      key: 'costing',
      label: '成本核算',
      children: (
        <SettingsForm group="costing" title="成本核算" saved="成本核算设置已保存" labelWidth={180}>
          <CostingFields />
        </SettingsForm>
      ),
    },
    {
      key: 'planning',
      label: '生产日历',
      children: (
        <SettingsForm group="planning" title="生产日历" saved="生产日历已保存">
          <PlanningFields />
        </SettingsForm>
      ),
    },
    { key: 'ui', label: '界面', children: <UiSection /> },
    { key: 'print', label: '打印模板', children: <PrintTemplatesSection /> },
    ...(canEdit ? [{ key: 'notify', label: '消息通知', children: <NotifySettingsSection /> }] : []),
  ];
  return <Tabs items={items} destroyOnHidden={false} />;
}
