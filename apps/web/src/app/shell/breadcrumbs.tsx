import { Fragment } from 'react';
import { Link } from 'react-router';
import { HOME_PATH, pageMeta } from '../../platform/menu/menu-model.ts';

interface Crumb {
  key: string;
  title: string;
  to?: string;
}

/** 首页 / module / group / page, from the static menu tree; hidden pages go through their list. */
export function breadcrumbTrail(path: string): Crumb[] {
  const meta = pageMeta(path);
  if (!meta) return [];
  const list = meta.hidden && meta.activeMenu ? pageMeta(meta.activeMenu) : undefined;
  const chain = list ? [...list.trail, meta.trail[meta.trail.length - 1]] : meta.trail;
  const crumbs: Crumb[] = chain
    .filter((node) => !(node.type === '1' && node.path === '/home'))
    .map((node, i, all) => ({
      key: node.path ?? node.name,
      title: node.name,
      to: i < all.length - 1 && node.type === '2' ? node.path : undefined,
    }));
  return path === HOME_PATH ? crumbs : [{ key: HOME_PATH, title: '首页', to: HOME_PATH }, ...crumbs];
}

export function Breadcrumbs({ path }: { path: string }) {
  const crumbs = breadcrumbTrail(path);
  if (!crumbs.length) return null;
  return (
    <nav className="rm-breadcrumb" aria-label="面包屑" data-testid="breadcrumb">
      <ol>
        {crumbs.map((c, i) => (
          <Fragment key={c.key}>
            {i > 0 && (
              <li className="rm-breadcrumb-sep" aria-hidden="true">
                /
              </li>
            )}
            <li className={i === crumbs.length - 1 ? 'rm-breadcrumb-last' : undefined}>
              {c.to ? <Link to={c.to}>{c.title}</Link> : <span>{c.title}</span>}
            </li>
          </Fragment>
        ))}
      </ol>
    </nav>
  );
}
