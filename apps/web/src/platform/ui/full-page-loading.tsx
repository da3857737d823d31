/** A dependency-free loading screen for the first load and lazy shells. */
export function FullPageLoading({ text = '正在加载…' }: { text?: string }) {
  return (
    <div className="rm-fullpage-loading" role="status" aria-live="polite">
      <div className="rm-spinner" />
      <div className="rm-fullpage-loading-text">{text}</div>
    </div>
  );
}
