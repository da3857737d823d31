import { CloseOutlined } from '@ant-design/icons';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useStore } from '../../platform/store.ts';
import { type TabView, tabsStore } from '../../platform/tabs-store.ts';
import { refreshPage } from './keep-alive.tsx';
import { PopMenu } from './pop-menu.tsx';

/** The tag bar of visited pages with the right-click menu 刷新 / 关闭 / 关闭其它 / 关闭所有. */
export function TagsView({ activePath, fallbackPath }: { activePath: string; fallbackPath: string }) {
  const views = useStore(tabsStore, (s) => s.views);
  const navigate = useNavigate();
  const bar = useRef<HTMLDivElement>(null);
  // One context menu at a time: right-clicking another tag moves it there.
  const [menuPath, setMenuPath] = useState<string | null>(null);

  useEffect(() => {
    const el = bar.current?.querySelector<HTMLElement>(`[data-path="${CSS.escape(activePath)}"]`);
    el?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [activePath]);

  const goAfterClose = (next: TabView | undefined) => navigate(next?.fullPath ?? fallbackPath);

  const close = (view: TabView) => {
    const next = tabsStore.close(view.path);
    if (view.path === activePath) goAfterClose(next);
  };

  const itemsFor = (view: TabView) => [
    { key: 'refresh', label: '刷新' },
    { key: 'close', label: '关闭', disabled: Boolean(view.affix) },
    { key: 'closeOthers', label: '关闭其它' },
    { key: 'closeAll', label: '关闭所有' },
  ];

  const onMenu = (view: TabView, key: string) => {
    if (key === 'refresh') {
      refreshPage(view.path);
      if (view.path !== activePath) navigate(view.fullPath);
      else navigate(`/redirect${view.fullPath}`, { replace: true });
    } else if (key === 'close') {
      close(view);
    } else if (key === 'closeOthers') {
      tabsStore.closeOthers(view.path);
      if (view.path !== activePath) navigate(view.fullPath);
    } else if (key === 'closeAll') {
      tabsStore.closeAll();
      const left = tabsStore.get().views;
      if (!left.some((v) => v.path === activePath)) goAfterClose(left[left.length - 1]);
    }
  };

  return (
    <div
      className="rm-tags"
      ref={bar}
      data-testid="tags-view"
      // The tags are tabs (role=tab), which a screen reader finds only inside their tablist.
      role="tablist"
      aria-label="已打开的页面"
      onWheel={(e) => {
        if (bar.current && Math.abs(e.deltaY) > Math.abs(e.deltaX)) bar.current.scrollLeft += e.deltaY;
      }}
    >
      {views.map((view) => {
        const active = view.path === activePath;
        return (
          <PopMenu
            key={view.path}
            items={itemsFor(view)}
            onSelect={(key) => onMenu(view, key)}
            trigger="contextMenu"
            placement="bottomLeft"
            open={menuPath === view.path}
            onOpenChange={(open) => setMenuPath(open ? view.path : null)}
            testId="tags-context-menu"
          >
            <span
              role="tab"
              tabIndex={0}
              aria-selected={active}
              className={`rm-tag${active ? ' rm-tag-active' : ''}${view.affix ? ' rm-tag-affix' : ''}`}
              data-path={view.path}
              onClick={() => !active && navigate(view.fullPath)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') navigate(view.fullPath);
              }}
              onMouseUp={(e) => {
                if (e.button === 1 && !view.affix) close(view);
              }}
            >
              {active && <span className="rm-tag-dot" />}
              {view.title}
              {!view.affix && (
                <CloseOutlined
                  className="rm-tag-close"
                  aria-label={`关闭 ${view.title}`}
                  onClick={(e) => {
                    e.stopPropagation();
                    close(view);
                  }}
                />
              )}
            </span>
          </PopMenu>
        );
      })}
    </div>
  );
}
