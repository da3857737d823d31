import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Checkbox,
  Form,
  Input,
  Modal,
  Popconfirm,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useEffect } from 'react';
import { http } from '../../platform/api/client.ts';
import { isApiError } from '../../platform/api/errors.ts';
import { toast } from '../../platform/feedback.ts';

interface Option {
  value: string;
  label: string;
}
interface Mine {
  channels: { kind: string; target: string; hasSecret: boolean; status: string }[];
  prefs: { kind: string; channels: string[]; digest: boolean }[];
  kinds: Option[];
  channelKinds: Option[];
}

const KEY = ['notify', 'mine'] as const;

const PLACEHOLDER: Record<string, string> = {
  email: 'zhang.san@example.com',
  wecom: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=…',
  dingtalk: 'https://oapi.dingtalk.com/robot/send?access_token=…',
};

/** One outside channel: its address (and 钉钉's 加签 secret), saved or removed on its own. */
function ChannelRow({
  kind,
  label,
  current,
}: {
  kind: string;
  label: string;
  current?: Mine['channels'][number];
}) {
  const [form] = Form.useForm<{ target: string; secret?: string }>();
  const client = useQueryClient();
  useEffect(() => form.setFieldsValue({ target: current?.target ?? '', secret: undefined }), [current, form]);
  const save = async () => {
    const v = await form.validateFields();
    try {
      await http.put('/api/v1/notify/mine/channel', {
        kind,
        target: v.target,
        ...(v.secret ? { secret: v.secret } : {}),
      });
      toast.success(`${label}已保存`);
      void client.invalidateQueries({ queryKey: KEY });
    } catch (e) {
      if (isApiError(e))
        form.setFields(e.errors.map((x) => ({ name: x.field as 'target', errors: [x.message] })));
    }
  };
  const remove = async () => {
    await http.delete(`/api/v1/notify/mine/channel/${kind}`);
    toast.success(`${label}已删除`);
    void client.invalidateQueries({ queryKey: KEY });
  };
  return (
    <Form form={form} layout="inline" style={{ marginBottom: 8 }} name={`notify-${kind}`}>
      <Form.Item label={label} style={{ width: 110 }} />
      <Form.Item name="target" style={{ flex: 1 }}>
        <Input placeholder={PLACEHOLDER[kind]} maxLength={500} aria-label={`${label}地址`} />
      </Form.Item>
      {kind === 'dingtalk' && (
        <Form.Item name="secret">
          <Input.Password
            placeholder={current?.hasSecret ? '加签密钥（已设置）' : '加签密钥 SEC…'}
            maxLength={200}
            style={{ width: 180 }}
            aria-label="钉钉加签密钥"
          />
        </Form.Item>
      )}
      <Space>
        <Button type="primary" onClick={() => void save().catch(() => undefined)}>
          保存
        </Button>
        {current && (
          <Popconfirm title={`删除${label}？`} okText="删除" cancelText="取消" onConfirm={() => remove()}>
            <Button danger>删除</Button>
          </Popconfirm>
        )}
      </Space>
    </Form>
  );
}

/**
 * 消息通知 (个人中心): one's email and group robots, and for each kind of message where it also goes
 * and whether it is gathered into an hourly digest (docs/api.md "Notifications").
 */
export function NotifyChannelsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const client = useQueryClient();
  const mine = useQuery({
    queryKey: KEY,
    queryFn: () => http.get<Mine>('/api/v1/notify/mine'),
    enabled: open,
  });
  const data = mine.data;
  const setPref = async (kind: string, channels: string[], digest: boolean) => {
    await http.put('/api/v1/notify/mine/pref', { kind, channels, digest });
    void client.invalidateQueries({ queryKey: KEY });
  };
  const configured = new Set(data?.channels.map((c) => c.kind));
  return (
    <Modal title="消息通知" open={open} onCancel={onClose} footer={null} width={820} destroyOnHidden>
      <Typography.Title level={5}>接收渠道</Typography.Title>
      {data?.channelKinds.map((c) => (
        <ChannelRow
          key={c.value}
          kind={c.value}
          label={c.label}
          current={data.channels.find((x) => x.kind === c.value)}
        />
      ))}
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        各类消息
      </Typography.Title>
      <Table
        rowKey="value"
        size="small"
        pagination={false}
        loading={mine.isFetching && !data}
        dataSource={data?.kinds ?? []}
        data-testid="notify-prefs"
        columns={[
          { title: '消息类型', dataIndex: 'label', width: 120, render: (v: string) => <Tag>{v}</Tag> },
          {
            title: '同时发送到',
            key: 'channels',
            render: (_, k: Option) => {
              const pref = data?.prefs.find((p) => p.kind === k.value);
              return (
                <Checkbox.Group
                  value={pref?.channels ?? []}
                  options={(data?.channelKinds ?? []).map((c) => ({
                    ...c,
                    disabled: !configured.has(c.value),
                  }))}
                  onChange={(v) =>
                    void setPref(k.value, v as string[], pref?.digest ?? false).catch(() => undefined)
                  }
                />
              );
            },
          },
          {
            title: '每小时摘要',
            key: 'digest',
            width: 110,
            render: (_, k: Option) => {
              const pref = data?.prefs.find((p) => p.kind === k.value);
              return (
                <Switch
                  checked={pref?.digest ?? false}
                  aria-label={`${k.label}每小时摘要`}
                  onChange={(on) => void setPref(k.value, pref?.channels ?? [], on).catch(() => undefined)}
                />
              );
            },
          },
        ]}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        开启摘要后，该类消息不再逐条提醒，每小时汇总为一条（含条数和列表链接）。
      </Typography.Paragraph>
    </Modal>
  );
}
