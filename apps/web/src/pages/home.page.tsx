import './home.css';
import { RightOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Empty, Skeleton, Tag } from 'antd';
import dayjs from 'dayjs';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { Cockpit } from '../modules/dashboard/cockpit.tsx';
import { messageApi, messageKeys } from '../modules/system/message/message.api.ts';
import { relativeTime } from '../platform/lib/time.ts';
import { MenuIcon } from '../platform/menu/menu-icons.tsx';
import { firstPage, menuModel, type NavItem } from '../platform/menu/menu-model.ts';
import { useUser } from '../platform/session.ts';
import { PageCard } from '../platform/ui/page-card.tsx';

const TINTS = [
  '#1890ff',
  '#13c2c2',
  '#52c41a',
  '#fa8c16',
  '#722ed1',
  '#eb2f96',
  '#2f54eb',
  '#faad14',
  '#f5222d',
];

function greeting(hour: number): string {
  if (hour < 6) return '凌晨好';
  if (hour < 9) return '早上好';
  if (hour < 12) return '上午好';
  if (hour < 14) return '中午好';
  if (hour < 18) return '下午好';
  return '晚上好';
}

function countPages(item: NavItem): number {
  if (!item.children?.length) return item.type === '2' ? 1 : 0;
  return item.children.reduce((n, c) => n + countPages(c), 0);
}

/** 首页: greeting, quick links to the user's modules and the latest unread messages. */
export function HomePage() {
  const user = useUser();
  const navigate = useNavigate();
  const model = user ? menuModel(user) : undefined;
  const modules = useMemo(() => (model?.nav ?? []).filter((n) => n.key !== '/home'), [model]);
  const messages = useQuery({
    queryKey: messageKeys.page({ pageNum: 1, pageSize: 5, read: false }),
    queryFn: () => messageApi.page({ pageNum: 1, pageSize: 5, read: false }),
  });
  if (!user || !model) return null;
  const now = dayjs();
  const roles = (user.roleDataList ?? []).map((r) => r.roleName);
  const canOpenMessages = model.canVisit('/system/message/index');

  return (
    <div className="rm-home">
      <section className="rm-home-welcome">
        <div>
          <h2 data-testid="home-greeting">
            {greeting(now.hour())}，{user.firstName || user.userName}，祝您工作顺利！
          </h2>
          <p>
            今天是 {now.format('YYYY年M月D日 dddd')}
            {user.deptData?.deptName ? ` · ${user.deptData.deptName}` : ''}
            {roles.length > 0 && (
              <span className="rm-home-roles">
                {roles.map((r) => (
                  <Tag key={r} color="blue" variant="filled">
                    {r}
                  </Tag>
                ))}
              </span>
            )}
          </p>
        </div>
        <dl className="rm-home-stats">
          <div>
            <dt>可用模块</dt>
            <dd>{modules.length}</dd>
          </div>
          <div>
            <dt>未读消息</dt>
            <dd>{messages.data?.total ?? '-'}</dd>
          </div>
        </dl>
      </section>

      <Cockpit canVisit={model.canVisit} />

      <div className="rm-home-grid">
        <PageCard title="快捷入口" className="rm-home-links">
          {modules.length === 0 ? (
            <Empty description="您的账号暂未分配业务模块，请联系管理员" />
          ) : (
            <div className="rm-home-modules" data-testid="home-modules">
              {modules.map((m, i) => (
                <button
                  type="button"
                  key={m.key}
                  className="rm-home-module"
                  onClick={() => {
                    const target = firstPage(m);
                    if (target) navigate(target);
                  }}
                >
                  <span
                    className="rm-home-module-icon"
                    style={{ color: TINTS[i % TINTS.length], background: `${TINTS[i % TINTS.length]}14` }}
                  >
                    <MenuIcon name={m.icon} />
                  </span>
                  <span className="rm-home-module-name">{m.title}</span>
                  <span className="rm-home-module-meta">{countPages(m)} 个功能</span>
                </button>
              ))}
            </div>
          )}
        </PageCard>

        <PageCard
          title="未读消息"
          className="rm-home-messages"
          extra={
            canOpenMessages && (
              <button
                type="button"
                className="rm-link-button"
                onClick={() => navigate('/system/message/index')}
              >
                全部消息 <RightOutlined />
              </button>
            )
          }
        >
          {messages.isLoading ? (
            <Skeleton active paragraph={{ rows: 4 }} />
          ) : messages.data?.list.length ? (
            <ul className="rm-home-msg-list">
              {messages.data.list.map((m) => (
                <li key={m.id}>
                  <span className="rm-home-msg-dot" />
                  <div>
                    <div className="rm-home-msg-title">{m.title}</div>
                    <div className="rm-home-msg-content">{m.content}</div>
                  </div>
                  <time>{relativeTime(m.createdAt)}</time>
                </li>
              ))}
            </ul>
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无未读消息" />
          )}
        </PageCard>
      </div>
    </div>
  );
}
