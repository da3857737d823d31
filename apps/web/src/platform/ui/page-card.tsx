import type { CSSProperties, ReactNode } from 'react';

/** The white panel a page's content sits on. */
export function PageCard({
  children,
  className,
  style,
  title,
  extra,
}: {
  children: ReactNode;
  className?: string;
  style?: CSSProperties;
  title?: ReactNode;
  extra?: ReactNode;
}) {
  return (
    <section className={`rm-card${className ? ` ${className}` : ''}`} style={style}>
      {(title || extra) && (
        <header className="rm-card-head">
          <div className="rm-card-title">{title}</div>
          {extra && <div className="rm-card-extra">{extra}</div>}
        </header>
      )}
      <div className="rm-card-body">{children}</div>
    </section>
  );
}
