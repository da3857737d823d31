const BALL_ANGLES = [0, 1, 2, 3, 4, 5, 6, 7].map((n) => (n * Math.PI) / 4);

/** The RingMES mark: a bearing seen from the side (outer ring, balls, inner ring). */
export function Logo({ size = 32 }: { size?: number }) {
  const balls = BALL_ANGLES.map((a) => (
    <circle key={a} cx={32 + 18.5 * Math.cos(a)} cy={32 + 18.5 * Math.sin(a)} r={4.6} fill="url(#rm-ball)" />
  ));
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="rm-ring" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#69c0ff" />
          <stop offset="1" stopColor="#096dd9" />
        </linearGradient>
        <radialGradient id="rm-ball" cx="0.35" cy="0.35" r="0.7">
          <stop offset="0" stopColor="#ffffff" />
          <stop offset="1" stopColor="#91d5ff" />
        </radialGradient>
      </defs>
      <circle cx="32" cy="32" r="28" fill="none" stroke="url(#rm-ring)" strokeWidth="6" />
      {balls}
      <circle cx="32" cy="32" r="10" fill="none" stroke="url(#rm-ring)" strokeWidth="5" />
    </svg>
  );
}
