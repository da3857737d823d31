import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, InputNumber, Space, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { loadMenuFilter, type UiSettings } from '../../../app/built-pages.ts';
import { sessionStore } from '../../../app/session.ts';
import { http } from '../../../platform/api/client.ts';
import { usePermission } from '../../../platform/auth/permission.tsx';
import { toast } from '../../../platform/feedback.ts';
import { PageCard } from '../../../platform/ui/page-card.tsx';

const keys = {
  password: ['sysSetting', 'passwordPolicy'] as const,
  ui: ['sysSetting', 'ui'] as const,
};

/** 系统设置: the password minimum and whether menus list unfinished (建设中) pages. */
export function SystemSettingPage() {
  const can = usePermission();
  const editable = can('system:setting:edit');
  const client = useQueryClient();
  const policy = useQuery({
    queryKey: keys.password,
    queryFn: () => http.get<{ minLength: number }>('/api/v1/sysSetting/passwordPolicy'),
  });
  const ui = useQuery({ queryKey: keys.ui, queryFn: () => http.get<UiSettings>('/api/v1/sysSetting/ui') });
  const [minLength, setMinLength] = useState<number | null>(null);
  useEffect(() => {
    if (policy.data) setMinLength(policy.data.minLength);
  }, [policy.data]);
  const [saving, setSaving] = useState(false);

  const savePolicy = async () => {
    if (minLength === null) return;
    setSaving(true);
    try {
      await http.put('/api/v1/sysSetting/passwordPolicy', { minLength });
      toast.success('密码策略已保存');
      await client.invalidateQueries({ queryKey: keys.password });
    } finally {
      setSaving(false);
    }
  };

  const toggleUnfinished = async (showUnfinishedPages: boolean) => {
    await http.put('/api/v1/sysSetting/ui', { showUnfinishedPages });
    await client.invalidateQueries({ queryKey: keys.ui });
    // Redraw the menus with the new filter.
    await loadMenuFilter();
    const user = sessionStore.get().user;
    if (user) sessionStore.set({ user: { ...user } });
    toast.success(showUnfinishedPages ? '菜单已显示建设中的页面' : '菜单已隐藏建设中的页面');
  };

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <PageCard title="密码策略">
        <Space wrap>
          <span>密码最小长度</span>
          <InputNumber<number>
            min={6}
            max={64}
            precision={0}
            value={minLength}
            onChange={setMinLength}
            disabled={!editable}
            aria-label="密码最小长度"
          />
          {editable && (
            <Button type="primary" loading={saving} onClick={savePolicy}>
              保存
            </Button>
          )}
        </Space>
      </PageCard>
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
    </Space>
  );
}
