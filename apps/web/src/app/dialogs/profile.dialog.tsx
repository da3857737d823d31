import { BellOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Avatar, Button, Descriptions, Modal, Tag } from 'antd';
import { http } from '../../platform/api/client.ts';
import { useUser } from '../../platform/session.ts';

/** What `/api/health` tells about the running release (关于). */
interface Health {
  version: string;
  commit: string;
  db: 'pglite' | 'postgres';
  schema: string | null;
}

/**
 * 个人信息: account, name, phone, email, department and roles of the signed-in user, and the way to
 * one's 消息通知 (email, group robots, digests): the spec's user dropdown holds three entries only.
 * 关于 names the release the server runs (version, commit, database), for a support call.
 */
export function ProfileDialog({
  open,
  onClose,
  onNotify,
}: {
  open: boolean;
  onClose: () => void;
  onNotify: () => void;
}) {
  const user = useUser();
  const health = useQuery({
    queryKey: ['health'],
    queryFn: () => http.get<Health>('/api/health'),
    enabled: open,
    staleTime: 60_000,
  });
  if (!user) return null;
  const roles = user.roleDataList ?? [];
  return (
    <Modal title="个人信息" open={open} onCancel={onClose} footer={null} width={520} destroyOnHidden>
      <div className="rm-profile-head">
        <Avatar size={56} src={user.avatar || undefined} className="rm-avatar">
          {(user.firstName || user.userName).slice(0, 1)}
        </Avatar>
        <div>
          <div className="rm-profile-name">{user.firstName || user.userName}</div>
          <div className="rm-profile-sub">{user.introduction || '欢迎使用 RingMES 轴承制造管理系统'}</div>
        </div>
      </div>
      <Descriptions column={1} bordered size="small" styles={{ label: { width: 110 } }} data-testid="profile">
        <Descriptions.Item label="账号">{user.userName}</Descriptions.Item>
        <Descriptions.Item label="姓名">{user.firstName || '-'}</Descriptions.Item>
        <Descriptions.Item label="手机号码">{user.phone || '-'}</Descriptions.Item>
        <Descriptions.Item label="邮箱">{user.email || '-'}</Descriptions.Item>
        <Descriptions.Item label="所属部门">{user.deptData?.deptName || '-'}</Descriptions.Item>
        <Descriptions.Item label="角色">
          {roles.length ? roles.map((r) => <Tag key={r.roleId ?? r.roleName}>{r.roleName}</Tag>) : '-'}
        </Descriptions.Item>
      </Descriptions>
      <Descriptions
        title="关于"
        column={1}
        size="small"
        style={{ marginTop: 12 }}
        styles={{ label: { width: 110 } }}
        data-testid="about"
      >
        <Descriptions.Item label="版本">
          {health.data ? `RingMES ${health.data.version}（${health.data.commit.slice(0, 12)}）` : '-'}
        </Descriptions.Item>
        <Descriptions.Item label="数据库">
          {health.data
            ? `${health.data.db === 'postgres' ? 'PostgreSQL' : '嵌入式 PostgreSQL（PGlite）'}，结构 ${health.data.schema ?? '-'}`
            : '-'}
        </Descriptions.Item>
      </Descriptions>
      <div style={{ marginTop: 12, textAlign: 'right' }}>
        <Button icon={<BellOutlined />} onClick={onNotify}>
          消息通知
        </Button>
      </div>
    </Modal>
  );
}
