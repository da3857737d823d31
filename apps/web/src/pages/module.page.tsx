import { HomeOutlined } from '@ant-design/icons';
import { Button, Tag } from 'antd';
import { useNavigate } from 'react-router';
import { MenuIcon } from '../platform/menu/menu-icons.tsx';
import { findNavTrail, menuModel, type NavItem, pageMeta } from '../platform/menu/menu-model.ts';
import type { PageProps } from '../platform/page.ts';
import { useUser } from '../platform/session.ts';
import { PageCard } from '../platform/ui/page-card.tsx';

function visiblePages(items: readonly NavItem[] | undefined, out: NavItem[] = []): NavItem[] {
  for (const item of items ?? []) {
    if (item.children?.length) visiblePages(item.children, out);
    else if (item.type === '2' && item.path) out.push(item);
  }
  return out;
}

/**
 * The page of a module whose screens are not built yet: which module and group it belongs to,
 * and links to the module's other pages. Never a blank screen.
 */
export function ModulePage({ path }: PageProps) {
  const navigate = useNavigate();
  const user = useUser();
  const meta = pageMeta(path);
  if (!meta || !user) return null;
  const module = meta.trail[0];
  const groups = meta.trail.slice(1, -1).map((n) => n.name);
  const model = menuModel(user);
  const moduleNav = findNavTrail(model.nav, module.path ?? '')?.[0];
  const siblings = visiblePages(moduleNav?.children).filter((p) => p.path !== path);
  const listPath = meta.hidden ? meta.activeMenu : undefined;
  const listTitle = listPath ? pageMeta(listPath)?.title : undefined;

  return (
    <PageCard className="rm-module-page">
      <div className="rm-module-hero" data-testid="module-page">
        <span className="rm-module-icon">
          <MenuIcon name={module.icon} />
        </span>
        <div className="rm-module-text">
          <div className="rm-module-crumb">
            <Tag color="blue">{module.name}</Tag>
            {groups.map((g) => (
              <Tag key={g}>{g}</Tag>
            ))}
          </div>
          <h2>{meta.title}</h2>
          <p>
            「{meta.title}」属于<strong>{module.name}</strong>模块
            {groups.length ? `（${groups.join(' / ')}）` : ''}
            ，该模块的业务界面正在建设中，上线后将在此处提供完整功能。
          </p>
          <p className="rm-module-path">路由地址：{path}</p>
          <div className="rm-module-actions">
            {listPath && listTitle && (
              <Button type="primary" onClick={() => navigate(listPath)}>
                返回{listTitle}
              </Button>
            )}
            <Button icon={<HomeOutlined />} onClick={() => navigate('/home/info')}>
              返回首页
            </Button>
          </div>
        </div>
      </div>
      {siblings.length > 0 && (
        <div className="rm-module-siblings">
          <div className="rm-module-siblings-title">{module.name}的其他功能</div>
          <div className="rm-module-siblings-list">
            {siblings.slice(0, 24).map((p) => (
              <button type="button" key={p.key} className="rm-module-link" onClick={() => navigate(p.path!)}>
                {p.title}
              </button>
            ))}
          </div>
        </div>
      )}
    </PageCard>
  );
}
