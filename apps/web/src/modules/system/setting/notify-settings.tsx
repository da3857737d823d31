import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, InputNumber, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { http } from '../../../platform/api/client.ts';
import { isApiError } from '../../../platform/api/errors.ts';
import { toast } from '../../../platform/feedback.ts';
import { PageCard } from '../../../platform/ui/page-card.tsx';
import { applyFieldErrors } from '../../../platform/ui/search-form.tsx';

interface NotifySettings {
  siteUrl: string;
  host: string;
  port: number;
  secure: boolean;
  user: string;
  from: string;
  hasPassword: boolean;
}

const KEY = ['notify', 'settings'] as const;

/**
 * 系统设置 → 消息通知: the SMTP server that sends email notifications and the system's address that
 * makes their links (and the robots') clickable. The password is never shown; left empty it is kept.
 */
export function NotifySettingsSection() {
  const [form] = Form.useForm<NotifySettings & { password?: string }>();
  const client = useQueryClient();
  const [saving, setSaving] = useState(false);
  const data = useQuery({
    queryKey: KEY,
    queryFn: () => http.get<NotifySettings>('/api/v1/notify/settings'),
  });
  useEffect(() => {
    if (data.data) form.setFieldsValue({ ...data.data, password: undefined });
  }, [data.data, form]);
  const save = async (v: NotifySettings & { password?: string }) => {
    setSaving(true);
    try {
      const { hasPassword: _, password, ...rest } = v;
      await http.put('/api/v1/notify/settings', { ...rest, ...(password ? { password } : {}) });
      toast.success('消息通知设置已保存');
      await client.invalidateQueries({ queryKey: KEY });
    } catch (e) {
      if (isApiError(e)) applyFieldErrors(form, e.errors);
    } finally {
      setSaving(false);
    }
  };
  return (
    <PageCard title="消息通知">
      <Form
        form={form}
        name="notifySettings"
        layout="horizontal"
        labelCol={{ flex: '160px' }}
        disabled={data.isLoading}
        onFinish={save}
        style={{ maxWidth: 720 }}
        data-testid="settings-notify"
      >
        <Form.Item
          label="系统访问地址"
          name="siteUrl"
          extra="邮件和机器人消息中的链接以此开头，如 https://mes.example.com"
        >
          <Input maxLength={200} placeholder="https://mes.example.com" />
        </Form.Item>
        <Form.Item label="SMTP 服务器" name="host" extra="留空则不发送邮件">
          <Input maxLength={200} placeholder="smtp.example.com" />
        </Form.Item>
        <Form.Item label="端口" name="port">
          <InputNumber<number> min={1} max={65535} precision={0} aria-label="SMTP 端口" />
        </Form.Item>
        <Form.Item label="SSL 连接" name="secure" valuePropName="checked" extra="465 端口通常需要开启">
          <Switch />
        </Form.Item>
        <Form.Item label="用户名" name="user">
          <Input maxLength={200} autoComplete="off" />
        </Form.Item>
        <Form.Item
          label="密码"
          name="password"
          extra={data.data?.hasPassword ? '已设置；留空则不修改' : undefined}
        >
          <Input.Password maxLength={200} autoComplete="new-password" />
        </Form.Item>
        <Form.Item label="发件人" name="from">
          <Input maxLength={200} placeholder="RingMES <mes@example.com>" />
        </Form.Item>
        <Form.Item label=" " colon={false}>
          <Button type="primary" htmlType="submit" loading={saving}>
            保存
          </Button>
        </Form.Item>
      </Form>
    </PageCard>
  );
}
