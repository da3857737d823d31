import { DownOutlined, KeyOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import type { MenuProps } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { logout, useUser } from '../../platform/session.ts';
import { PopMenu } from './pop-menu.tsx';

const ProfileDialog = lazy(() =>
  import('../dialogs/profile.dialog.tsx').then((m) => ({ default: m.ProfileDialog })),
);
const NotifyChannelsDialog = lazy(() =>
  import('../dialogs/notify-channels.dialog.tsx').then((m) => ({ default: m.NotifyChannelsDialog })),
);
const ChangePasswordDialog = lazy(() =>
  import('../dialogs/change-password.dialog.tsx').then((m) => ({ default: m.ChangePasswordDialog })),
);

/** The user dropdown: 个人信息 (with the way to 消息通知), 修改密码, 退出登录 — the spec's three. */
export function UserMenu() {
  const user = useUser();
  const [dialog, setDialog] = useState<'profile' | 'notify' | 'password' | null>(null);
  const [loaded, setLoaded] = useState<{ profile?: boolean; notify?: boolean; password?: boolean }>({});
  if (!user) return null;
  const name = user.firstName || user.userName;

  const items: MenuProps['items'] = [
    { key: 'profile', icon: <UserOutlined />, label: '个人信息' },
    { key: 'password', icon: <KeyOutlined />, label: '修改密码' },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: '退出登录', danger: true },
  ];
  const onSelect = (key: string) => {
    if (key === 'logout') logout();
    else if (key === 'profile' || key === 'notify' || key === 'password') {
      setLoaded((l) => ({ ...l, [key]: true }));
      setDialog(key);
    }
  };

  return (
    <>
      <PopMenu items={items} onSelect={onSelect} testId="user-menu-items">
        <button type="button" className="rm-header-action rm-user" data-testid="user-menu">
          <span className="rm-avatar rm-avatar-text" aria-hidden="true">
            {user.avatar ? <img src={user.avatar} alt="" /> : name.slice(0, 1)}
          </span>
          <span className="rm-user-name">{name}</span>
          <DownOutlined className="rm-user-caret" />
        </button>
      </PopMenu>
      <Suspense fallback={null}>
        {loaded.profile && (
          <ProfileDialog
            open={dialog === 'profile'}
            onClose={() => setDialog(null)}
            onNotify={() => {
              setLoaded((l) => ({ ...l, notify: true }));
              setDialog('notify');
            }}
          />
        )}
        {loaded.notify && <NotifyChannelsDialog open={dialog === 'notify'} onClose={() => setDialog(null)} />}
        {loaded.password && (
          <ChangePasswordDialog open={dialog === 'password'} onClose={() => setDialog(null)} />
        )}
      </Suspense>
    </>
  );
}
