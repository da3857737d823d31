import { useEffect, useState } from 'react';

/** A table body height that fills the window below `offset` px (for virtual tables). */
export function useTableHeight(offset: number, min = 280): number {
  const measure = () => Math.max(min, (typeof window === 'undefined' ? 800 : window.innerHeight) - offset);
  const [height, setHeight] = useState(measure);
  useEffect(() => {
    const onResize = () => setHeight(Math.max(min, window.innerHeight - offset));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [offset, min]);
  return height;
}
